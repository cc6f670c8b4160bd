import {
  type AiCatalogDiscovery,
  type AiCatalogSignals,
  aiCatalogSignals,
  aiCatalogUrl,
  PARITY_BOTS,
} from "@scan/checks";
import type { BotFetch, TextResource } from "@scan/contract";
import { decodeBody } from "./decode";
import { fetchDocument } from "./document-fetch";
import { type FetchLimits, type FetchPolicy, TargetError } from "./http-fetch";

/** Google reads the first 500 KiB of robots.txt; the other files get room for large sites. */
const ROBOTS_MAX_BYTES = 500 * 1024;
const LLMS_MAX_BYTES = 1024 * 1024;
const SITEMAP_MAX_BYTES = 5 * 1024 * 1024;
const AI_CATALOG_MAX_BYTES = 1024 * 1024;
const SIDE_FETCH_MAX_REDIRECTS = 5;

/**
 * Fetches a text file beside the page. Never throws: an unreachable file is status 0 with the
 * reason, which the checks read as "could not be fetched" (RFC 9309 treats that like a 5xx).
 */
export const fetchTextResource = async (url: URL, policy: FetchPolicy, limits: FetchLimits): Promise<TextResource> => {
  try {
    const { final, redirects, redirectLoop } = await fetchDocument(url, policy, {
      ...limits,
      maxRedirects: SIDE_FETCH_MAX_REDIRECTS,
    });
    // a loop would pass five hops too; RFC 9309 lets crawlers treat either as "unavailable"
    const tooManyRedirects = redirectLoop || redirects.length > SIDE_FETCH_MAX_REDIRECTS;
    return {
      url: final.url,
      status: final.status,
      contentType: final.headers["content-type"] ?? null,
      body: decodeBody(final.body, final.headers["content-type"]),
      truncated: final.truncated,
      error: null,
      ...(tooManyRedirects ? { tooManyRedirects } : {}),
    };
  } catch (error) {
    const reason = error instanceof TargetError ? error.message : String(error);
    return { url: url.toString(), status: 0, contentType: null, body: null, truncated: false, error: reason };
  }
};

export const fetchRobotsTxt = (origin: string, policy: FetchPolicy, deadline: number) =>
  fetchTextResource(new URL("/robots.txt", origin), policy, { deadline, maxBytes: ROBOTS_MAX_BYTES });

export const fetchLlmsTxt = (origin: string, policy: FetchPolicy, deadline: number) =>
  fetchTextResource(new URL("/llms.txt", origin), policy, { deadline, maxBytes: LLMS_MAX_BYTES });

/** The catalog signals known before any page is read: robots.txt's `Agentmap:` (of a 2xx file) and the well-known path. */
export const siteAiCatalogSignals = (origin: string, robots: TextResource | null): AiCatalogSignals =>
  aiCatalogSignals({
    pageUrl: new URL("/", origin).toString(),
    html: null,
    linkHeader: null,
    robotsTxt: robots && robots.status >= 200 && robots.status < 300 ? robots.body : null,
  });

/**
 * The ai-catalog.json the signals name, in Lighthouse 13.5's order (`aiCatalogUrl`: robots.txt's
 * `Agentmap:`, the page's `<link rel="ai-catalog">`, its `Link` header, else
 * /.well-known/ai-catalog.json), fetched under the address policy. It fetches no page: the
 * signals are what the caller already knows (an audit's discovery knows robots.txt alone; its
 * report adds the start page's links from the scan). Never throws: an unreachable catalog is
 * status 0 with the reason.
 */
export const fetchAiCatalog = async (
  signals: AiCatalogSignals,
  policy: FetchPolicy,
  deadline: number,
): Promise<AiCatalogDiscovery> => {
  const file = await fetchTextResource(new URL(aiCatalogUrl(signals)), policy, {
    deadline,
    maxBytes: AI_CATALOG_MAX_BYTES,
  });
  return {
    signals,
    catalog: { url: file.url, status: file.status, contentType: file.contentType, body: file.body, error: file.error },
  };
};

/** The first `Sitemap:` line of a 2xx robots.txt, else /sitemap.xml of the origin. */
export const sitemapUrlFor = (origin: string, robots: TextResource | null): URL => {
  if (robots && robots.status >= 200 && robots.status < 300 && robots.body) {
    for (const line of robots.body.split(/\r?\n/)) {
      const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
      if (match?.[1]) {
        try {
          return new URL(match[1], origin);
        } catch {
          // an unparseable Sitemap line: look for the next one
        }
      }
    }
  }
  return new URL("/sitemap.xml", origin);
};

export const fetchSitemap = (origin: string, robots: TextResource | null, policy: FetchPolicy, deadline: number) =>
  fetchTextResource(sitemapUrlFor(origin, robots), policy, { deadline, maxBytes: SITEMAP_MAX_BYTES });

export const fetchAsBots = (url: URL, policy: FetchPolicy, limits: FetchLimits): Promise<BotFetch[]> =>
  Promise.all(
    PARITY_BOTS.map(async ({ bot, userAgent }): Promise<BotFetch> => {
      try {
        const { final } = await fetchDocument(
          url,
          { ...policy, userAgent },
          { ...limits, maxRedirects: SIDE_FETCH_MAX_REDIRECTS },
        );
        return {
          bot,
          userAgent,
          status: final.status,
          body: decodeBody(final.body, final.headers["content-type"]),
          error: null,
        };
      } catch (error) {
        return { bot, userAgent, status: 0, body: null, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
