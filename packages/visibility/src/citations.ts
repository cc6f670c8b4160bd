import type { Citation, CitationSpan } from "./engine";
import { hostOfUrl, normaliseUrl, siteHost } from "./url";

/** One place an engine points at a source: in text order where it marks a span, else in the order it lists it. */
export type SourceMark = { rawUrl: string; title?: string; span?: CitationSpan; domain?: string };

const looksLikeHost = (title: string | undefined): title is string =>
  title !== undefined && /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i.test(title.trim());

/**
 * The answer's citations, one per distinct normalised URL, numbered by first appearance: a
 * source whose first marked span starts earlier comes first; sources the engine lists without
 * marking a span follow, in the engine's order.
 */
export const collectCitations = (marks: SourceMark[], redirectHosts: string[] = []): Citation[] => {
  const groups = new Map<string, { citation: Omit<Citation, "position">; firstStart: number; firstSeen: number }>();
  marks.forEach((mark, seen) => {
    const url = normaliseUrl(mark.rawUrl);
    if (url === "") return;
    let group = groups.get(url);
    if (!group) {
      const host = hostOfUrl(url) ?? "";
      const viaRedirect = redirectHosts.includes(host);
      const domain = mark.domain ?? (viaRedirect && looksLikeHost(mark.title) ? siteHost(mark.title) : host);
      group = {
        citation: { url, rawUrl: mark.rawUrl, ...(mark.title ? { title: mark.title } : {}), domain, spans: [] },
        firstStart: Number.POSITIVE_INFINITY,
        firstSeen: seen,
      };
      groups.set(url, group);
    }
    if (!group.citation.title && mark.title) group.citation.title = mark.title;
    if (mark.span && !group.citation.spans.some((s) => s.start === mark.span?.start && s.end === mark.span?.end)) {
      group.citation.spans.push(mark.span);
      group.firstStart = Math.min(group.firstStart, mark.span.start);
    }
  });
  return [...groups.values()]
    .sort((a, b) => a.firstStart - b.firstStart || a.firstSeen - b.firstSeen)
    .map(({ citation }, index) => {
      const spans = [...citation.spans].sort((a, b) => a.start - b.start || a.end - b.end);
      const first = spans[0];
      return { ...citation, spans, position: index + 1, ...(first ? { start: first.start, end: first.end } : {}) };
    });
};
