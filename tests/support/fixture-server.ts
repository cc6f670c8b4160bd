import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export type FixtureServer = {
  origin: string;
  hostPort: string;
  url: (path: string) => string;
  close: () => Promise<void>;
};

/** Serves test pages on 127.0.0.1; the only targets tests ever scan. */
export const startFixtureServer = async (
  routes: Record<string, Handler>,
  /** answers paths no route names; default 404 */
  fallback?: Handler,
  /** the loopback address it listens on: another one than 127.0.0.1 is another site to the address policy's hosts */
  host = "127.0.0.1",
): Promise<FixtureServer> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const handler = routes[path];
    if (handler) return handler(req, res);
    if (fallback) return fallback(req, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    hostPort: `${host}:${port}`,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};

export const html =
  (body: string, status = 200, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
  };

export const text =
  (body: string, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(body);
  };

/** Accepts the connection and never answers. */
export const hang: Handler = () => undefined;
