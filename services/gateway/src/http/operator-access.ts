import { AppError } from "@scan/contract";
import { basicPassword, bearerToken, tokenMatches } from "@scan/platform";
import type { Authorization, Guard } from "./route";

/** Who may read /metrics: anyone when no METRICS_TOKEN is set, otherwise its holder, as a Bearer token. */
export const metricsReader = (token: string | undefined): Authorization =>
  token
    ? {
        guard: (req) => {
          if (tokenMatches(bearerToken(req.get("authorization")), token)) return;
          throw new AppError(
            "unauthenticated",
            "The metrics need the METRICS_TOKEN",
            "Send Authorization: Bearer <METRICS_TOKEN> (Prometheus: authorization.credentials).",
            { "WWW-Authenticate": 'Bearer realm="metrics"' },
          );
        },
      }
    : "public";

/**
 * The queue dashboard's operator: the admin token, as `Authorization: Bearer <ADMIN_TOKEN>`
 * (scripts, a proxy that injects it) or as the password of HTTP Basic with any user name (a
 * browser asks for it, and then sends it with the dashboard's own API calls). A browser sends
 * Basic credentials by itself, so a state-changing request from another origin is refused: no
 * other site can make an operator's browser retry or clean jobs.
 */
export const dashboardOperator = (token: string): Guard => ({
  guard: (req, res) => {
    const authorization = req.get("authorization");
    const presented = bearerToken(authorization) ?? basicPassword(authorization);
    if (!tokenMatches(presented, token)) {
      res.append("WWW-Authenticate", 'Basic realm="queues", charset="UTF-8"');
      res.append("WWW-Authenticate", 'Bearer realm="queues"');
      throw new AppError(
        "unauthenticated",
        "The queue dashboard needs the admin token",
        "Send Authorization: Bearer <ADMIN_TOKEN>, or sign in with the token as the password.",
      );
    }
    const origin = req.get("origin");
    if (!["GET", "HEAD", "OPTIONS"].includes(req.method) && origin && new URL(origin).host !== req.get("host")) {
      throw new AppError("forbidden", "Cross-origin changes to the queues are refused", "Use the dashboard itself.");
    }
  },
});
