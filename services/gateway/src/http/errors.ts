import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import { AppError, errorBody, type ResponseForm } from "@scan/contract";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { dependencyOutage } from "./dependency-outage";

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

type BodyParserError = Error & { type?: string; status?: number; limit?: number };

/** Turns body-parser's failures into the API's errors. */
const fromBodyParser = (error: BodyParserError): AppError | null => {
  switch (error.type) {
    case "entity.parse.failed":
      return new AppError(
        "invalid_json",
        "The request body is not valid JSON",
        "Send a JSON object with Content-Type: application/json.",
      );
    case "entity.too.large":
      return new AppError(
        "payload_too_large",
        `The request body is larger than ${error.limit ?? "the limit"} bytes`,
        "Send a smaller body.",
      );
    case "encoding.unsupported":
    case "charset.unsupported":
      return new AppError("invalid_request", error.message, "Send the body as UTF-8 JSON.");
    case "request.aborted":
    case "request.size.invalid":
    case "stream.encoding.set":
      return new AppError("invalid_request", error.message, "Send a complete JSON body.");
    default:
      return null;
  }
};

/** The last middleware: every error leaves in the selected envelope; a 500 never leaks its cause. */
export const errorHandler =
  (log: Logger): ErrorRequestHandler =>
  (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = error instanceof AppError ? error : fromBodyParser(error as BodyParserError);
    if (known) return sendError(res, known);
    const outage = dependencyOutage(error);
    if (outage) {
      log.warn({ requestId: res.locals.requestId, route: req.path, dependency: outage }, "dependency unavailable");
      if (res.headersSent) return;
      return sendError(
        res,
        new AppError(
          "service_unavailable",
          `The ${outage === "database" ? "database" : "scan queue"} is unavailable`,
          "Try again in a few seconds.",
          { "Retry-After": "5" },
        ),
      );
    }
    const errorId = randomUUID();
    log.error({ err: error, errorId, requestId: res.locals.requestId, route: req.path }, "unhandled error");
    if (res.headersSent) return;
    sendError(
      res,
      new AppError("internal_error", `Internal error (id ${errorId})`, "Try again; if it persists, report this id."),
    );
  };

/**
 * Requests that fail before express sees them (a malformed request line, headers over the
 * limit) are answered by Node itself with a bare status; these get the API's envelope instead.
 * No header could be read, so the deployment's default form applies.
 */
export const answerClientError =
  (defaultForm: ResponseForm, log: Logger) =>
  (error: Error & { code?: string }, socket: Duplex): void => {
    if (!socket.writable) return void socket.destroy();
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(
      errorBody(
        defaultForm,
        new AppError(
          "invalid_request",
          tooLarge ? "The request's headers are larger than the server accepts" : "The request is not valid HTTP",
          tooLarge ? "Send smaller headers (fewer or shorter cookies)." : "Send a well-formed HTTP/1.1 request.",
        ),
      ),
    );
    log.debug({ code: error.code }, "malformed request refused");
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
