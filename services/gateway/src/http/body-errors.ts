import { AppError, type ErrorKind } from "@scan/contract";
import type { Request } from "express";

/** What express's body parser (body-parser, raw-body, zlib) and router reject a request with. */
type ReaderError = Error & { type?: string; status?: number; expose?: boolean; limit?: number };

const ENCODINGS = "gzip, deflate or br";
const JSON_HINT = "Send a JSON object with Content-Type: application/json.";

const contentEncoding = (req: Request): string =>
  (req.get("content-encoding") ?? "identity").trim().toLowerCase() || "identity";

/** The error kind for a client-error status another library chose. */
const KIND_OF_STATUS: Record<number, ErrorKind> = {
  400: "invalid_request",
  404: "not_found",
  405: "method_not_allowed",
  408: "request_timeout",
  413: "payload_too_large",
  414: "uri_too_long",
  415: "unsupported_media_type",
  431: "headers_too_large",
};

/**
 * The API's error for a body that could not be read, or for any other client error a library
 * raised with a 4xx status; null for anything else (a bug or an outage, which stay 5xx).
 * Shared by the REST API's error middleware and the tool server's, so neither answers 500 to
 * a body the caller got wrong.
 */
export const readerError = (error: unknown, req: Request): AppError | null => {
  if (!(error instanceof Error)) return null;
  const reader = error as ReaderError;
  switch (reader.type) {
    case "entity.parse.failed":
      return new AppError("invalid_json", "The request body is not valid JSON", JSON_HINT);
    case "entity.too.large":
      return new AppError(
        "payload_too_large",
        `The request body is larger than ${reader.limit ?? "the limit"} bytes`,
        "Send a smaller body.",
      );
    case "encoding.unsupported":
      return new AppError(
        "unsupported_media_type",
        `The body's Content-Encoding "${contentEncoding(req).slice(0, 40)}" is not one this server decodes`,
        `Send the body uncompressed (no Content-Encoding), or compressed as ${ENCODINGS} and named so.`,
      );
    case "charset.unsupported":
      return new AppError(
        "unsupported_media_type",
        `The body's charset is not supported: ${reader.message}`,
        "Send the body as UTF-8 JSON (Content-Type: application/json).",
      );
    case "request.aborted":
      return new AppError("invalid_request", "The request body ended before it was complete", JSON_HINT);
    case "request.size.invalid":
      return new AppError(
        "invalid_request",
        "The request body's length does not match its Content-Length",
        "Send exactly Content-Length bytes of body.",
      );
    case "stream.encoding.set":
      return new AppError("invalid_request", reader.message, JSON_HINT);
  }
  const status = typeof reader.status === "number" ? reader.status : undefined;
  if (status === undefined || status < 400 || status > 499) return null;
  const encoding = contentEncoding(req);
  // zlib's own failures reach here as 400s without a type: the body does not decode as its
  // Content-Encoding says (corrupt, cut short, or not compressed at all)
  if (status === 400 && encoding !== "identity" && "errno" in reader) {
    return new AppError(
      "invalid_request",
      `The request body does not decode as Content-Encoding ${encoding.slice(0, 40)}: ${reader.message}`,
      `Send the body compressed as its Content-Encoding says (${ENCODINGS}), or uncompressed without Content-Encoding.`,
    );
  }
  if (error instanceof URIError) {
    return new AppError(
      "invalid_request",
      "The request's path is not valid percent-encoding",
      "Encode reserved and non-ASCII characters of the path as UTF-8 bytes, each as %XX (encodeURIComponent does it).",
    );
  }
  return new AppError(KIND_OF_STATUS[status] ?? "invalid_request", reader.message, JSON_HINT);
};
