import { createHash } from "node:crypto";
import type { Request, Response } from "express";

/** A strong entity tag of these bytes: a quoted base64url SHA-256 prefix (162 bits). */
export const strongTagOf = (bytes: Buffer | string): string =>
  `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;

/**
 * Whether an If-None-Match header names this entity tag, by the weak comparison GET and HEAD
 * use (RFC 9110 §13.1.2: `W/"x"` and `"x"` match); `*` matches any current representation.
 */
export const noneMatchHits = (ifNoneMatch: string | undefined, tag: string): boolean => {
  if (ifNoneMatch === undefined) return false;
  const opaque = tag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === opaque;
  });
};

/** A weak entity tag of a value: it names what a representation says, not its bytes. */
export const weakTagOf = (value: unknown): string => `W/${strongTagOf(JSON.stringify(value))}`;

/** An envelope without Form A's `meta.requestId`, which differs on every request. */
const withoutRequestId = (body: object): object => {
  const meta = (body as { meta?: unknown }).meta;
  if (meta === null || typeof meta !== "object" || !("requestId" in meta)) return body;
  const { requestId: _requestId, ...rest } = meta as Record<string, unknown>;
  return { ...body, meta: rest };
};

/** What the answer depends on besides its URL: the credential that picks the caller's records, and the form. */
const VARY = ["Authorization", "X-API-Key", "X-Response-Form"];

/**
 * Answers a JSON envelope a client may keep and revalidate (RFC 9110 §13, §15.4.5): a weak
 * `ETag` over what the envelope says (everything but Form A's request id: the same records in
 * the same form are the same representation), `Cache-Control: private, no-cache` (a browser
 * may keep it, must ask before reusing it, and no shared cache may keep it) and `Vary`. When
 * `If-None-Match` names the tag, the answer is 304 with no body, and the request's point of
 * the rate limit is given back: revalidating costs nothing.
 */
export const sendRevalidatable = async (req: Request, res: Response, body: object, status = 200): Promise<void> => {
  const tag = weakTagOf(withoutRequestId(body));
  res.setHeader("ETag", tag);
  res.setHeader("Cache-Control", "private, no-cache");
  for (const name of VARY) res.vary(name);
  if (noneMatchHits(req.get("if-none-match"), tag)) {
    await res.locals.giveBack?.();
    res.status(304).end();
    return;
  }
  res.status(status).json(body);
};
