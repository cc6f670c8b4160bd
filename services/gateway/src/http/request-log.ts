import { redactUrl, uncensored } from "@scan/platform";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { GatewayMetrics } from "../observability/metrics";
import { pathTable } from "./route-paths";

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

const paramsOf = (path: string): number => path.split("/").filter((part) => part.startsWith(":")).length;

/**
 * The route label of a request: the declared path (`/api/v1/scan/:id`) its URL falls on,
 * never the raw path, so labels stay few. It is read from the declarations rather than from
 * the route express matched, so a request refused before any route ran (401, 429, a body
 * refused by the parser, a preflight) and an error handled under a mount point (the tool
 * server's) carry the same label as the route's own answers. A path no route declares is
 * `unmatched`; where two declarations fit (`/a/b` and `/a/:id`), the more specific one, with
 * fewer parameters, is the label.
 */
export const routeLabeller = (paths: readonly string[]) => {
  const table = pathTable([...new Set(paths)].map((path) => ({ path, value: path })));
  return (req: Request, res: Response): string => {
    if (res.locals.route) return res.locals.route;
    const path = (req.originalUrl.split("?")[0] ?? "").split("#")[0] ?? "";
    const [best] = table.at(path).sort((a, b) => paramsOf(a) - paramsOf(b) || a.localeCompare(b));
    return best ?? "unmatched";
  };
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
export const observeRequests = ({
  log,
  metrics,
  paths,
}: {
  log: Logger;
  metrics: GatewayMetrics;
  /** every path a route is declared on: the labels */
  paths: readonly string[];
}): RequestHandler => {
  const lines = uncensored(log);
  const routeOf = routeLabeller(paths);
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
