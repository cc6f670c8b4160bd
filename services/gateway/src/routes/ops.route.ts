import { AppError } from "@scan/contract";
import type { Liveness, Readiness } from "@scan/platform";
import { bearerToken, tokenMatches } from "@scan/platform";
import { type Request, type Response, Router } from "express";
import { methodNotAllowed } from "../infra/http";
import type { GatewayMetrics } from "../infra/metrics";

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
export const opsRoutes = ({ metrics, readiness, metricsToken }: OpsRouteDeps): Router => {
  const router = Router();

  router
    .route("/healthz")
    .get((_req: Request, res: Response) => {
      res.json({ ok: true } satisfies Liveness);
    })
    .all(methodNotAllowed(["GET"]));

  router
    .route("/readyz")
    .get(async (_req: Request, res: Response) => {
      const state = await readiness();
      res.setHeader("Cache-Control", "no-store");
      res.status(state.ok ? 200 : 503).json(state);
    })
    .all(methodNotAllowed(["GET"]));

  router
    .route("/metrics")
    .get(async (req: Request, res: Response) => {
      if (metricsToken && !tokenMatches(bearerToken(req.get("authorization")), metricsToken)) {
        throw new AppError(
          "unauthenticated",
          "The metrics need the METRICS_TOKEN",
          "Send Authorization: Bearer <METRICS_TOKEN> (Prometheus: authorization.credentials).",
          { "WWW-Authenticate": 'Bearer realm="metrics"' },
        );
      }
      res.setHeader("Content-Type", metrics.registry.contentType);
      res.setHeader("Cache-Control", "no-store");
      res.send(await metrics.registry.metrics());
    })
    .all(methodNotAllowed(["GET"]));

  return router;
};
