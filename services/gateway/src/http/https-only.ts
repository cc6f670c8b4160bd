import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { AppError } from "@scan/contract";
import type { RequestHandler } from "express";

/**
 * Paths the cluster calls on the pod itself over plain HTTP: the kubelet's probes and
 * Prometheus's scrape. They never pass through the Ingress (it does not route them) and carry
 * no caller's credentials, so they are answered whatever the scheme.
 */
export const PLAIN_HTTP_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * The scheme the client used. With no trusted proxy (`trustProxy` 0) it is the socket's own and
 * X-Forwarded-Proto is ignored, whoever sent it. With N trusted hops, X-Forwarded-Proto is read
 * as X-Forwarded-For is: its values in order, each proxy appending its own, so the one the
 * outermost trusted proxy wrote is N from the right; values further left came from beyond the
 * trusted hops (the client, perhaps) and are not believed. A proxy that overwrites the header
 * leaves one value, which is then the answer. No header: the proxy said nothing, and its
 * connection's own scheme is what is known.
 */
export const clientScheme = (req: IncomingMessage, trustProxy: number): string => {
  const socketScheme = (req.socket as TLSSocket).encrypted ? "https" : "http";
  if (trustProxy === 0) return socketScheme;
  const header = req.headers["x-forwarded-proto"];
  const values = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value !== "");
  if (values.length === 0) return socketScheme;
  return values[Math.max(0, values.length - trustProxy)] as string;
};

/** A Host header fit to redirect to: a DNS name or an IP literal, with an optional port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The HTTPS origin of the host the client asked for (port dropped: HTTPS is on 443), or null. */
const httpsOrigin = (host: string | undefined): string | null => {
  if (!host || host.length > 260 || !HOST.test(host)) return null;
  return `https://${host.replace(/:\d{1,5}$/, "")}`;
};

/** An address of the machine itself (the pod's own network namespace), IPv4, IPv6 or IPv4-mapped. */
const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && (address === "::1" || /^(::ffff:)?127\./.test(address));

export type HttpsOnlyOptions = {
  /** proxy hops whose X-Forwarded-Proto is believed (TRUST_PROXY) */
  trustProxy: number;
  /**
   * Path prefixes served over plain HTTP to a loopback peer only: the queue dashboard, which the
   * Ingress does not route and operators reach with `kubectl port-forward`, whose connection
   * arrives from inside the pod after crossing the API server's TLS.
   */
  loopbackPaths?: readonly string[];
  /** Strict-Transport-Security max-age on HTTPS responses */
  hstsMaxAgeS: number;
};

/**
 * "HTTPS only in production" (docs/spec/public-scanning-api.md §1). A request that did not
 * arrive over HTTPS is refused before authentication, rate limits or body parsing, so a key sent
 * in clear is never looked up and never counted: 403 in the request's envelope, saying to use
 * https. Reading a page (GET or HEAD outside the API and the tool server: the API reference,
 * the queue dashboard) is redirected instead, 308 to the same path on https. The probes and
 * /metrics stay reachable over plain HTTP, and the `loopbackPaths` from the pod itself. HTTPS
 * responses carry Strict-Transport-Security.
 */
export const httpsOnly =
  ({ trustProxy, hstsMaxAgeS, loopbackPaths = [] }: HttpsOnlyOptions): RequestHandler =>
  (req, res, next) => {
    if (clientScheme(req, trustProxy) === "https") {
      res.setHeader("Strict-Transport-Security", `max-age=${hstsMaxAgeS}`);
      return next();
    }
    if (PLAIN_HTTP_PATHS.has(req.path)) return next();
    const local = loopbackPaths.some((prefix) => req.path === prefix || req.path.startsWith(`${prefix}/`));
    if (local && isLoopback(req.socket.remoteAddress)) return next();
    const origin = httpsOrigin(req.headers.host);
    const isPage = !req.path.startsWith("/api/") && !req.path.startsWith("/mcp");
    if (origin && isPage && (req.method === "GET" || req.method === "HEAD")) {
      res.redirect(308, `${origin}${req.originalUrl}`);
      return;
    }
    next(
      new AppError(
        "https_required",
        "This service is served over HTTPS only; the request came over plain HTTP",
        origin
          ? `Send it to ${origin}${req.path} instead, and treat any API key sent over plain HTTP as exposed.`
          : "Send it over https://, and treat any API key sent over plain HTTP as exposed.",
      ),
    );
  };
