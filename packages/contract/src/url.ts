import type { ResponseForm } from "./envelope";

/** Longest URL accepted for a scan; longer ones are almost always generated junk. */
export const MAX_URL_LENGTH = 2048;

export type NormalisedUrl = { ok: true; url: string } | { ok: false; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Turns what a caller typed into the URL that is scanned and stored.
 * Form A takes absolute http(s) URLs only; Form B also takes a bare host or host/path and
 * reads it as https (docs/spec/public-scanning-api.md §4.1). The fragment is dropped (it never reaches the server), the
 * host is lower-cased and IDNA-encoded, and a default port is removed. Credentials in the
 * URL are refused rather than stored.
 */
export const normaliseScanUrl = (input: string, form: ResponseForm): NormalisedUrl => {
  const trimmed = input.trim();
  if (trimmed === "") return { ok: false, reason: "url is empty" };
  if (trimmed.length > MAX_URL_LENGTH) return { ok: false, reason: `url is longer than ${MAX_URL_LENGTH} characters` };
  if (/\s/.test(trimmed)) return { ok: false, reason: "url contains whitespace" };
  let candidate = trimmed;
  if (!SCHEME.test(trimmed) || /^[^/:]+:\d+(\/|$)/.test(trimmed)) {
    if (form === "A") return { ok: false, reason: "url must be absolute, starting with http:// or https://" };
    candidate = `https://${trimmed.replace(/^\/\//, "")}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, reason: "url is not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `url scheme ${url.protocol.replace(":", "")} is not supported; use http or https` };
  }
  if (url.hostname === "") return { ok: false, reason: "url has no host" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "url must not contain credentials" };
  url.hash = "";
  return { ok: true, url: url.toString() };
};
