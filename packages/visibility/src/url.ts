import { domainToASCII } from "node:url";

/**
 * Query parameters that say who sent a visitor, not which page they asked for. Engines add some
 * of them to the links they cite (ChatGPT appends `utm_source=chatgpt.com`), so the same page
 * cited twice would otherwise count as two.
 */
const TRACKING_PARAMS = new Set([
  "gclid",
  "gbraid",
  "wbraid",
  "dclid",
  "fbclid",
  "msclkid",
  "yclid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "igshid",
  "mc_cid",
  "mc_eid",
  "_ga",
  "_gl",
  "_hsenc",
  "_hsmi",
  "srsltid",
  "ref_src",
  "oly_anon_id",
  "oly_enc_id",
  "vero_id",
]);

const isTrackingParam = (name: string): boolean => {
  const lower = name.toLowerCase();
  return lower.startsWith("utm_") || TRACKING_PARAMS.has(lower);
};

/**
 * One spelling per page: lower-case scheme and host (URL parsing does both, and turns an
 * internationalised host into its ASCII form), no default port, no fragment, no tracking
 * parameters, the remaining parameters sorted by name, and no trailing slash on the path (the
 * site's root is `https://example.com`). `www.` is kept: it is a different host, and only domain
 * matching treats it as the same site. A string that is no http(s) URL is returned trimmed.
 */
export const normaliseUrl = (raw: string): string => {
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return trimmed;
  const params = [...url.searchParams].filter(([name]) => !isTrackingParam(name));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length > 0 ? `?${new URLSearchParams(params).toString()}` : "";
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${url.host}${path}${query}`;
};

/** The host a site is known by for matching: lower-case, ASCII, without a leading `www.` or a trailing dot. */
export const siteHost = (host: string): string => {
  const ascii = domainToASCII(host.trim().toLowerCase().replace(/\.$/, "")) || host.trim().toLowerCase();
  return ascii.replace(/^www\./, "");
};

/**
 * The site a domain setting names: accepts `example.com`, `www.example.com`, or a URL
 * (`https://example.com/blog`), whose host is taken.
 */
export const domainOf = (domain: string): string => {
  const trimmed = domain.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      return siteHost(new URL(trimmed).hostname);
    } catch {
      return siteHost(trimmed);
    }
  }
  return siteHost(trimmed.split(/[/?#]/)[0] ?? "");
};

/** The site host of a URL, or null when it is no http(s) URL. */
export const hostOfUrl = (raw: string): string | null => {
  try {
    const url = new URL(raw.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? siteHost(url.hostname) : null;
  } catch {
    return null;
  }
};

/** Whether a host is the domain or one of its subdomains (`www.` ignored on both sides). */
export const hostIsOnDomain = (host: string, domain: string): boolean => {
  const h = siteHost(host);
  const d = domainOf(domain);
  return d !== "" && (h === d || h.endsWith(`.${d}`));
};
