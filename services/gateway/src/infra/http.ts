import { randomUUID } from "node:crypto";
import { errorBody, parseResponseForm, type ResponseForm } from "@scan/shared/envelope";
import { AppError } from "@scan/shared/errors";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";

declare global {
  namespace Express {
    interface Locals {
      form: ResponseForm;
      requestId: string;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Request id (the caller's X-Request-Id when it is sane) and the envelope form, for every request. */
export const requestContext =
  (defaultForm: ResponseForm): RequestHandler =>
  (req, res, next) => {
    const incoming = req.get("x-request-id");
    res.locals.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.form = parseResponseForm(req.get("x-response-form"), defaultForm);
    res.setHeader("X-Request-Id", res.locals.requestId);
    next();
  };

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
    const errorId = randomUUID();
    log.error({ err: error, errorId, requestId: res.locals.requestId, route: req.path }, "unhandled error");
    if (res.headersSent) return;
    sendError(
      res,
      new AppError("internal_error", `Internal error (id ${errorId})`, "Try again; if it persists, report this id."),
    );
  };
