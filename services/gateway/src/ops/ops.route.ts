import { Liveness, Readiness } from "@scan/platform";
import { z } from "zod";
import { commonHeaders, security, serviceErrors, serviceHeaders } from "../docs/common";
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
  route(
    {
      method: "get",
      path: "/healthz",
      authorization: "public",
      docs: {
        operationId: "liveness",
        tags: ["Operations"],
        summary: "The process serves",
        description: "For liveness and startup probes; never behind a token, never rate-limited.",
        headers: commonHeaders,
        responses: {
          "200": {
            description: "Alive.",
            headers: z.object(serviceHeaders),
            content: { "application/json": { schema: Liveness } },
          },
          ...serviceErrors(405),
        },
      },
    },
    ({ res }) => {
      res.json({ ok: true } satisfies Liveness);
    },
  ),

  route(
    {
      method: "get",
      path: "/readyz",
      authorization: "public",
      docs: {
        operationId: "readiness",
        tags: ["Operations"],
        summary: "Postgres and Redis answer",
        description:
          "Every dependency is probed at once, each giving up after `READY_TIMEOUT_MS`. A failing one is marked with `timeout`, `unreachable` or `not ready`; the cause is logged, never sent. A gateway that is shutting down answers 503 at once.",
        headers: commonHeaders,
        responses: {
          "200": {
            description: "Ready.",
            headers: z.object(serviceHeaders),
            content: { "application/json": { schema: Readiness } },
          },
          "503": {
            description: "Not ready: the failing dependencies are marked.",
            headers: z.object(serviceHeaders),
            content: { "application/json": { schema: Readiness } },
          },
          ...serviceErrors(405),
        },
      },
    },
    async ({ res }) => {
      const state = await readiness();
      res.setHeader("Cache-Control", "no-store");
      res.status(state.ok ? 200 : 503).json(state);
    },
  ),

  route(
    {
      method: "get",
      path: "/metrics",
      authorization: metricsReader(metricsToken),
      docs: {
        operationId: "metrics",
        tags: ["Operations"],
        summary: "Prometheus metrics",
        description:
          "Queue depth by state, HTTP request durations by route and status, rate-limit rejections by plan, and the process metrics. Open unless the deployment sets `METRICS_TOKEN`.",
        security: security.metrics,
        headers: commonHeaders,
        responses: {
          "200": {
            description: "The Prometheus text exposition format.",
            headers: z.object(serviceHeaders),
            content: { "text/plain; version=0.0.4; charset=utf-8": { schema: z.string() } },
          },
          ...serviceErrors(401, 405),
        },
      },
    },
    async ({ res }) => {
      res.setHeader("Content-Type", metrics.registry.contentType);
      res.setHeader("Cache-Control", "no-store");
      res.send(await metrics.registry.metrics());
    },
  ),
];
