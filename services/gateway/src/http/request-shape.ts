import { AppError } from "@scan/contract";
import type { RequestHandler } from "express";

const PATH_HINT =
  "Encode reserved and non-ASCII characters of the path as UTF-8 bytes, each as %XX with two hex digits (encodeURIComponent does it).";

/** The path as the caller sent it, shortened for a message. */
const shown = (path: string): string => (path.length > 80 ? `${path.slice(0, 80)}…` : path);

/**
 * Refuses, before any route reads it, a URL longer than `maxUrlBytes` (414) and a path that
 * is not valid percent-encoding (400: `%ZZ`, a lone `%`, a cut or overlong UTF-8 sequence),
 * which the router would otherwise fail to decode.
 */
export const wellFormedRequest =
  ({ maxUrlBytes }: { maxUrlBytes: number }): RequestHandler =>
  (req, _res, next) => {
    const url = req.originalUrl;
    if (Buffer.byteLength(url) > maxUrlBytes) {
      throw new AppError(
        "uri_too_long",
        `The request's URL is longer than ${maxUrlBytes} bytes`,
        "Send a shorter URL: long inputs belong in a JSON body.",
      );
    }
    const end = url.indexOf("?");
    const path = end === -1 ? url : url.slice(0, end);
    try {
      decodeURIComponent(path);
    } catch {
      throw new AppError(
        "invalid_request",
        `The path ${JSON.stringify(shown(path))} is not valid percent-encoding`,
        PATH_HINT,
      );
    }
    next();
  };
