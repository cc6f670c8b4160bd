import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type PortPolicy, type Resolve, vetTarget } from "@scan/platform";

export type EgressPolicy = { allowlist: ReadonlySet<string>; resolve: Resolve; ports: PortPolicy };

export type EgressProxy = {
  /** http://127.0.0.1:<port>, once listening */
  url: Promise<string>;
  /** requests refused because their target was not allowed */
  readonly refused: number;
  close: () => Promise<void>;
};

/** a proxied connection with nothing to say for this long is cut */
const IDLE_TIMEOUT_MS = 30_000;

/**
 * The browser's only way out. Chromium resolves names itself, so vetting a URL before the
 * browser requests it cannot stop a DNS answer that changes in between (rebinding); every
 * request the render makes goes through this proxy instead, which vets the target, resolves it
 * once, and connects to the vetted address. HTTP requests are forwarded; HTTPS (and anything
 * else Chromium tunnels) arrives as CONNECT host:port and is piped after the same vetting.
 */
export const startEgressProxy = ({ allowlist, resolve, ports }: EgressPolicy): EgressProxy => {
  let refused = 0;
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  /** the address to connect to, or null when the target is refused */
  const vet = async (url: URL): Promise<string | null> => {
    const verdict = await vetTarget(url, { allowlist, resolve, ports });
    if (!verdict.allowed) {
      refused += 1;
      return null;
    }
    return verdict.addresses[0] ?? url.hostname.replace(/^\[|\]$/g, "");
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const address = target.protocol === "http:" ? await vet(target) : null;
    if (!address) {
      res.writeHead(403, { "content-type": "text/plain" }).end("refused by the scanner's address policy");
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = httpRequest({
      host: address,
      family: isIP(address) || undefined,
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      setHost: false,
      timeout: IDLE_TIMEOUT_MS,
    });
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("timeout", () => upstream.destroy());
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  };

  const tunnel = async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on("error", () => client.destroy());
    let target: URL;
    try {
      // CONNECT names host:port; the scheme only matters for the default port, which CONNECT always gives
      target = new URL(`https://${req.url ?? ""}`);
    } catch {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    const address = await vet(target);
    if (!address) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const upstream: Socket = connect({ host: address, port: Number(target.port || 443) });
    track(upstream);
    upstream.setTimeout(IDLE_TIMEOUT_MS, () => upstream.destroy());
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (upstream.connecting) client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      else client.destroy();
    });
    client.once("close", () => upstream.destroy());
  };

  const server = createServer((req, res) => {
    void forward(req, res).catch(() => res.destroy());
  });
  server.on("connection", track);
  server.on("connect", (req, client, head) => {
    void tunnel(req, client, head).catch(() => client.destroy());
  });
  server.keepAliveTimeout = IDLE_TIMEOUT_MS;

  const url = new Promise<string>((resolveUrl, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolveUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });

  return {
    url,
    get refused() {
      return refused;
    },
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
};
