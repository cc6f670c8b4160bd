import { atMost } from "@scan/platform";
import type { Citation, EngineAnswer } from "./engine";
import { hostOfUrl, normaliseUrl } from "./url";

/** Follows one redirect link once: the address it points at (its `Location`), or null when it points nowhere. */
export type FollowRedirect = (url: string) => Promise<string | null>;

/**
 * The hosts of the engines' own redirect links: Gemini cites every grounding source through
 * `https://vertexaisearch.cloud.google.com/grounding-api-redirect/…`, which answers a redirect
 * to the page the answer used.
 */
export const GROUNDING_REDIRECT_HOSTS: readonly string[] = ["vertexaisearch.cloud.google.com"];

/** redirect links of one answer followed at once */
const FOLLOWED_AT_ONCE = 4;

/** A link on one of `hosts`, each a host name or an exact `host:port`. */
const isRedirectLink = (raw: string, hosts: ReadonlySet<string>): boolean => {
  const url = URL.parse(raw);
  if (!url) return false;
  return hosts.has(url.host.toLowerCase()) || hosts.has(url.hostname.toLowerCase());
};

/**
 * Citations with the same address after their redirects were followed made one: the first in
 * answer order keeps its place and takes the other's spans; positions are counted again.
 */
const mergeByUrl = (citations: Citation[]): Citation[] => {
  const merged = new Map<string, Citation>();
  for (const citation of [...citations].sort((a, b) => a.position - b.position)) {
    const kept = merged.get(citation.url);
    if (!kept) {
      merged.set(citation.url, { ...citation, spans: [...citation.spans] });
      continue;
    }
    if (!kept.title && citation.title) kept.title = citation.title;
    for (const span of citation.spans)
      if (!kept.spans.some((s) => s.start === span.start && s.end === span.end)) kept.spans.push(span);
  }
  return [...merged.values()].map((citation, index) => {
    const spans = citation.spans.sort((a, b) => a.start - b.start || a.end - b.end);
    const first = spans[0];
    const { start: _start, end: _end, ...rest } = citation;
    return { ...rest, spans, position: index + 1, ...(first ? { start: first.start, end: first.end } : {}) };
  });
};

/**
 * The answer with each citation that points through a redirect link (`hosts`) replaced by the
 * page the link leads to: its `url` and `domain` become the page's, `rawUrl` stays the link the
 * engine sent. Each distinct link is followed once; one that does not lead to a web page (no
 * redirect, an error, another redirect link) is kept as the engine sent it, its domain the site
 * the engine named for it.
 */
export const resolveCitationRedirects = async (
  answer: EngineAnswer,
  hosts: readonly string[],
  follow: FollowRedirect,
): Promise<EngineAnswer> => {
  const wanted = new Set(hosts.map((host) => host.trim().toLowerCase()).filter((host) => host !== ""));
  if (wanted.size === 0) return answer;
  const links = [...new Set(answer.citations.filter((c) => isRedirectLink(c.rawUrl, wanted)).map((c) => c.rawUrl))];
  if (links.length === 0) return answer;
  const pages = new Map<string, string>();
  await atMost(links, FOLLOWED_AT_ONCE, async (link) => {
    const target = await follow(link).catch(() => null);
    const page = target ? normaliseUrl(target) : "";
    if (page !== "" && hostOfUrl(page) && !isRedirectLink(page, wanted)) pages.set(link, page);
  });
  if (pages.size === 0) return answer;
  const citations = answer.citations.map((citation) => {
    const page = pages.get(citation.rawUrl);
    return page ? { ...citation, url: page, domain: hostOfUrl(page) ?? citation.domain } : citation;
  });
  return { ...answer, citations: mergeByUrl(citations) };
};
