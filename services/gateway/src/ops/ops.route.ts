import type { Liveness, Readiness } from "@scan/platform";
import { metricsReader } from "../http/operator-access";
import { type Route, route } from "../http/route";
import type { GatewayMetrics } from "../observability/metrics";

export type OpsRouteDeps = {
  metrics: GatewayMetrics;
  readiness: () => Promise<Readiness>;
  /** when set, /metrics wants it as a Bearer token */
  metricsToken: string | undefined;
};

/**
 * For orchestrators and Prometheus, outside /api/v1 and its envelopes: /healthz says the
 * process is alive, /readyz that Postgres and Redis answer (503 with the failing one named
 * otherwise), /metrics the Prometheus text.
 */
export const opsRoutes = ({ metrics, readiness, metricsToken }: OpsRouteDeps): Route[] => [
  route({ method: "get", path: "/healthz", authorization: "public" }, ({ res }) => {
    res.json({ ok: true } satisfies Liveness);
  }),

  route({ method: "get", path: "/readyz", authorization: "public" }, async ({ res }) => {
    const state = await readiness();
    res.setHeader("Cache-Control", "no-store");
    res.status(state.ok ? 200 : 503).json(state);
  }),

  route({ method: "get", path: "/metrics", authorization: metricsReader(metricsToken) }, async ({ res }) => {
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.send(await metrics.registry.metrics());
  }),
];
