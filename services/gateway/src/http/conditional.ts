import { createHash } from "node:crypto";

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
