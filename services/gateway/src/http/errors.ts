import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { AppError, errorBody, parseResponseForm, type ResponseForm } from "@scan/contract";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { readerError } from "./body-errors";
import { dependencyOutage, type Outage } from "./dependency-outage";

export const sendError = (res: Response, error: AppError): void => {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json(errorBody(res.locals.form ?? "A", error));
};

/** Answers 405 with Allow for a known path called with a method it does not serve. */
export const methodNotAllowed =
  (allowed: readonly string[]): RequestHandler =>
  (req, _res, next) => {
    const allow = allowed.includes("GET") ? [...allowed, "HEAD"] : [...allowed];
    next(
      new AppError("method_not_allowed", `${req.method} is not allowed on ${req.path}`, `Use ${allow.join(", ")}.`, {
        Allow: allow.join(", "),
      }),
    );
  };

export const notFound: RequestHandler = (req, _res, next) => {
  next(new AppError("not_found", `No route for ${req.method} ${req.path}`, "See the API reference in the README."));
};

/** What the caller is told of each outage: the same 503 and wait, and which dependency it was. */
const OUTAGES: Record<Outage, () => AppError> = {
  database: () =>
    new AppError("service_unavailable", "The database is unavailable", "Try again in a few seconds.", {
      "Retry-After": "5",
    }),
  "database-busy": () =>
    new AppError(
      "service_unavailable",
      "The database is busy: every connection stayed in use for longer than a request may wait",
      "Try again in a few seconds; sending fewer requests at once helps.",
      { "Retry-After": "5" },
    ),
  queue: () =>
    new AppError("service_unavailable", "The scan queue is unavailable", "Try again in a few seconds.", {
      "Retry-After": "5",
    }),
};

/** The last middleware: every error leaves in the selected envelope; a 500 never leaks its cause. */
export const errorHandler =
  (log: Logger): ErrorRequestHandler =>
  (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = error instanceof AppError ? error : readerError(error, req);
    if (known) return sendError(res, known);
    const outage = dependencyOutage(error);
    if (outage) {
      log.warn(
        {
          requestId: res.locals.requestId,
          route: res.locals.loggedPath ?? req.path,
          dependency: outage,
          err: error instanceof Error ? error.message : String(error),
        },
        outage === "database-busy" ? "dependency busy" : "dependency unavailable",
      );
      if (res.headersSent) return;
      return sendError(res, OUTAGES[outage]());
    }
    const errorId = randomUUID();
    log.error(
      { err: error, errorId, requestId: res.locals.requestId, route: res.locals.loggedPath ?? req.path },
      "unhandled error",
    );
    if (res.headersSent) return;
    sendError(
      res,
      new AppError("internal_error", `Internal error (id ${errorId})`, "Try again; if it persists, report this id."),
    );
  };

/** The methods some route of the server serves: what a CONNECT is told to use instead. */
export const SERVED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";

/** A whole HTTP/1.1 answer with an error envelope, for a socket express never saw; the connection closes. */
const rawAnswer = (
  form: ResponseForm,
  error: AppError,
  reason: string,
  extraHeaders: Record<string, string> = {},
): string => {
  const body = JSON.stringify(errorBody(form, error));
  const headers = { ...error.headers, ...extraHeaders };
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
};

/** How Node's parser and its timers refuse a request, as the API's errors. */
const clientErrorOf = (code: string | undefined): { error: AppError; reason: string } => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        reason: "Request Header Fields Too Large",
        error: new AppError(
          "headers_too_large",
          "The request line and headers are larger than the server accepts",
          "Send smaller headers (fewer or shorter cookies) and a shorter URL.",
        ),
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        reason: "Request Timeout",
        error: new AppError(
          "request_timeout",
          "The request did not arrive in time: its headers or its body came too slowly",
          "Send the whole request promptly; large bodies need a connection fast enough for the server's request time limit.",
        ),
      };
    default:
      return {
        reason: "Bad Request",
        error: new AppError("invalid_request", "The request is not valid HTTP", "Send a well-formed HTTP/1.1 request."),
      };
  }
};

/**
 * Requests that fail before express sees them (a malformed request line, headers over the
 * limit, a request that did not arrive within the time limits) are answered by Node itself
 * with a bare status; these get the API's envelope instead. No header could be read, so the
 * deployment's default form applies.
 */
export const answerClientError =
  (defaultForm: ResponseForm, log: Logger) =>
  (error: Error & { code?: string }, socket: Duplex): void => {
    if (!socket.writable || error.code === "ECONNRESET") return void socket.destroy();
    const { error: refusal, reason } = clientErrorOf(error.code);
    log.debug({ code: error.code }, "malformed request refused");
    socket.end(rawAnswer(defaultForm, refusal, reason, { "x-request-id": randomUUID() }));
  };

/**
 * CONNECT asks the server to be a proxy; Node hands it to a "connect" listener and, without
 * one, drops the socket unanswered. This server proxies nothing: 405 with the methods it serves,
 * in the form the request named.
 */
export const answerConnect =
  (defaultForm: ResponseForm) =>
  (req: IncomingMessage, socket: Duplex): void => {
    socket.on("error", () => socket.destroy());
    const header = req.headers["x-response-form"];
    const form = parseResponseForm(typeof header === "string" ? header : undefined, defaultForm);
    const refusal = new AppError(
      "method_not_allowed",
      "CONNECT is not allowed: this server is not a proxy",
      `Use ${SERVED_METHODS} on the API's paths.`,
      { Allow: SERVED_METHODS },
    );
    socket.end(rawAnswer(form, refusal, "Method Not Allowed", { "x-request-id": randomUUID() }));
  };
