import type { Citation, CitationSpan, EngineAnswer } from "./engine";
import { findNames } from "./mentions";
import { hostIsOnDomain } from "./url";

export type Brand = { names: string[]; domains: string[] };
export type Competitor = { name: string; aliases?: string[]; domains: string[] };

export type EntityPresence = {
  /** the brand's first name, or the competitor's name */
  name: string;
  mentioned: boolean;
  /** times named in the answer */
  mentions: number;
  /** 1-based order of first mention among the brand and competitors named; null when not named */
  position: number | null;
  /** where it is named, in the answer text */
  spans: CitationSpan[];
  /** any citation on its domains or their subdomains */
  cited: boolean;
  /** its pages the answer cites, in citation order */
  citedPages: Citation[];
  /** the best (lowest) citation position among its pages; null when none cited */
  citationPosition: number | null;
};

export type AnswerAnalysis = {
  brand: EntityPresence;
  competitors: EntityPresence[];
  /** names in order of first mention, the brand's among them */
  mentionOrder: string[];
  /** citations on neither the brand's nor a competitor's domains */
  otherCitations: Citation[];
};

type Entity = { name: string; names: string[]; domains: string[] };

/**
 * What one answer says about the brand and its competitors: who is named, in which order, and
 * whose pages are cited. Where names overlap (`Acme` inside `Acme Cloud`, a competitor), the
 * longer name at a place wins, so one stretch of text names one company.
 */
export const analyseAnswer = (
  answer: Pick<EngineAnswer, "text" | "citations">,
  brand: Brand,
  competitors: Competitor[],
): AnswerAnalysis => {
  const entities: Entity[] = [
    { name: brand.names[0] ?? "", names: brand.names, domains: brand.domains },
    ...competitors.map((c) => ({ name: c.name, names: [c.name, ...(c.aliases ?? [])], domains: c.domains })),
  ];
  const candidates = entities
    .flatMap((entity, which) => findNames(answer.text, entity.names).map((match) => ({ ...match, which })))
    .sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const accepted: typeof candidates = [];
  for (const match of candidates) {
    const last = accepted.at(-1);
    if (last && match.start < last.end) continue;
    accepted.push(match);
  }
  const firstAt = new Map<number, number>();
  for (const match of accepted) if (!firstAt.has(match.which)) firstAt.set(match.which, match.start);
  const order = [...firstAt.entries()].sort((a, b) => a[1] - b[1]).map(([which]) => which);

  const claimed = new Set<string>();
  const presences = entities.map((entity, which): EntityPresence => {
    const spans = accepted.filter((m) => m.which === which).map(({ start, end }) => ({ start, end }));
    const citedPages = answer.citations.filter((c) => entity.domains.some((d) => hostIsOnDomain(c.domain, d)));
    for (const page of citedPages) claimed.add(page.url);
    const rank = order.indexOf(which);
    return {
      name: entity.name,
      mentioned: spans.length > 0,
      mentions: spans.length,
      position: rank < 0 ? null : rank + 1,
      spans,
      cited: citedPages.length > 0,
      citedPages,
      citationPosition: citedPages.length > 0 ? Math.min(...citedPages.map((c) => c.position)) : null,
    };
  });
  const [brandPresence, ...competitorPresences] = presences;
  if (!brandPresence) throw new Error("unreachable: the brand is always the first entity");
  return {
    brand: brandPresence,
    competitors: competitorPresences,
    mentionOrder: order.map((which) => entities[which]?.name ?? ""),
    otherCitations: answer.citations.filter((c) => !claimed.has(c.url)),
  };
};
