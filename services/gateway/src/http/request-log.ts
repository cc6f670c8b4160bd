import { redactUrl, uncensored } from "@scan/platform";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { GatewayMetrics } from "../observability/metrics";

declare global {
  namespace Express {
    interface Locals {
      /** the request's logger: every line carries its requestId */
      log: Logger;
      /** a route label set by handlers that are not express routes (the dashboard) */
      route?: string;
      /** logged instead of the URL when the path itself holds a secret (an invitation's token) */
      loggedPath?: string;
    }
  }
}

/** Paths an orchestrator or Prometheus calls every few seconds: logged at debug, still measured. */
const QUIET = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * The route pattern (`/api/v1/scan/:id`), never the raw path, so labels stay few. Requests
 * refused before a route matched (unknown paths, unparsable or oversized bodies) are `unmatched`.
 */
export const routeOf = (req: Request, res: Response): string => {
  if (res.locals.route) return res.locals.route;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === "string" ? `${req.baseUrl}${path}` : "unmatched";
};

/**
 * One log line and one histogram observation per request, when the response is done or the
 * client has gone (status 499). Registered right after the request context, so it sees every
 * request, errors included. The URL is logged with credential query parameters censored.
 *
 * The request line is built here from vetted values only (the method, the route pattern, the
 * censored URL, the status, the time and the request id, which the request context checked),
 * so it goes through a logger without the censoring pass; handlers log through
 * `res.locals.log`, which keeps it, and is made only when a handler first uses it.
 */
export const observeRequests = ({ log, metrics }: { log: Logger; metrics: GatewayMetrics }): RequestHandler => {
  const lines = uncensored(log);
  return (req, res, next) => {
    const started = performance.now();
    const requestId: string = res.locals.requestId;
    let child: Logger | undefined;
    Object.defineProperty(res.locals, "log", {
      get: () => {
        child ??= log.child({ requestId });
        return child;
      },
      configurable: true,
      enumerable: true,
    });
    res.once("close", () => {
      const seconds = (performance.now() - started) / 1000;
      const status = res.writableFinished ? res.statusCode : 499;
      const route = routeOf(req, res);
      metrics.httpDuration.observe({ method: req.method, route, status: String(status) }, seconds);
      const line = {
        requestId,
        method: req.method,
        route,
        url: res.locals.loggedPath ?? redactUrl(req.originalUrl),
        status,
        ms: Math.round(seconds * 1000),
      };
      if (QUIET.has(req.path)) lines.debug(line, "request");
      else lines.info(line, "request");
    });
    next();
  };
};
