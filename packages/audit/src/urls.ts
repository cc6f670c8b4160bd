import { pathOfUrl, patternMatches } from "@scan/checks";

/**
 * Extensions of files that are not web pages: links to them are not crawled (a crawler that
 * fetched every image and archive a site links to would audit its media, not its pages).
 */
const NOT_PAGES =
  /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|dmg|exe|msi|apk|mp[34]|m4[av]|mov|avi|wmv|webm|ogg|wav|flac|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?)$/i;

/**
 * The form an audit keeps a URL in, so one page is admitted once: http(s) only, fragment
 * dropped, host lower-cased and default port removed (the URL parser does both). The query
 * is kept as written: `?page=2` is another page. Null for what is not an http(s) URL.
 */
export const normaliseAuditUrl = (raw: string, base?: string | URL): string | null => {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  url.hash = "";
  return url.toString();
};

export type UrlRules = { origin: string; include: readonly string[]; exclude: readonly string[] };

/** Why a URL found on the site is not admitted to the audit, or null when it is. */
export const refusalOf = (url: string, rules: UrlRules): string | null => {
  const parsed = new URL(url);
  if (parsed.origin !== rules.origin) return "another origin";
  if (NOT_PAGES.test(parsed.pathname)) return "not a page";
  const path = pathOfUrl(parsed);
  if (rules.exclude.some((pattern) => patternMatches(path, pattern))) return "excluded";
  if (rules.include.length > 0 && !rules.include.some((pattern) => patternMatches(path, pattern)))
    return "not included";
  return null;
};
