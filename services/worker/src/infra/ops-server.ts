import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readiness } from "@scan/platform";
import { bearerToken, tokenMatches } from "@scan/platform";
import type { Registry } from "prom-client";

export type OpsServer = { url: string; close: () => Promise<void> };

export type OpsServerOptions = {
  host: string;
  port: number;
  registry: Registry;
  readiness: () => Promise<Readiness>;
  /** when set, /metrics wants it as a Bearer token; the probes stay open */
  metricsToken: string | undefined;
};

const json = (status: number, body: unknown) => ({ status, type: "application/json", body: JSON.stringify(body) });

/**
 * The worker's only listening port: /metrics for Prometheus, /healthz (the process answers)
 * and /readyz (browser launched, Redis and Postgres answering) for the orchestrator. Plain
 * node:http: three routes do not need a framework.
 */
export const startOpsServer = async ({
  host,
  port,
  registry,
  readiness,
  metricsToken,
}: OpsServerOptions): Promise<OpsServer> => {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://ops").pathname;
    const answer = async () => {
      if (req.method !== "GET" && req.method !== "HEAD")
        return { ...json(405, { error: "method not allowed" }), allow: "GET, HEAD" };
      switch (path) {
        case "/healthz":
          return json(200, { ok: true });
        case "/readyz": {
          const state = await readiness();
          return json(state.ok ? 200 : 503, state);
        }
        case "/metrics":
          if (metricsToken && !tokenMatches(bearerToken(req.headers.authorization), metricsToken)) {
            return { ...json(401, { error: "send Authorization: Bearer <METRICS_TOKEN>" }), challenge: true };
          }
          return { status: 200, type: registry.contentType, body: await registry.metrics() };
        default:
          return json(404, { error: "not found" });
      }
    };
    answer().then(
      (result) => {
        const headers: Record<string, string> = { "content-type": result.type, "cache-control": "no-store" };
        if ("allow" in result && typeof result.allow === "string") headers.allow = result.allow;
        if ("challenge" in result) headers["www-authenticate"] = 'Bearer realm="metrics"';
        res.writeHead(result.status, headers).end(req.method === "HEAD" ? undefined : result.body);
      },
      () => {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "internal error" }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
