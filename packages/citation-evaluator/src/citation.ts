import type { CitationObservation } from "./input";
import { siteOfUrl } from "./site";

/**
 * What an observed answer did for the brand, strongest first:
 * - `verified_url`: a cited source's URL is on the target URL's site (same registrable domain);
 * - `brand_mentioned`: the answer names the brand but cites none of the target site's pages;
 * - `competitor_cited`: the answer neither names the brand nor cites its site, but cites other
 *   sites: others took the place the brand wants;
 * - `not_cited`: the answer names no brand of ours and cites no source at all.
 */
export const CITATION_LABELS = ["verified_url", "brand_mentioned", "competitor_cited", "not_cited"] as const;
export type CitationLabel = (typeof CITATION_LABELS)[number];

export type CitationScore = { label: CitationLabel; score: number; isCited: boolean };

/** Details the revenue components and recommendations read; not part of the response. */
export type CitationFacts = CitationScore & {
  brandMentioned: boolean;
  /** rank factor 0..1 (see `rankFactor`); 0 when the brand is neither cited nor named */
  rank: number;
  /** the answer names or cites the brand */
  visible: boolean;
};

/** Points of the 0-100 citation score: site cited, brand named, rank. */
export const CITATION_WEIGHTS = { cited: 50, brand: 30, rank: 20 } as const;
/** Ranks beyond this earn no rank points. */
export const RANKED_POSITIONS = 10;

/** rankFactor(p) = max(0, (11 − p) / 10): 1 for first place, 0.9 for second, ..., 0.1 for tenth, 0 after. */
export const rankFactor = (position: number): number =>
  Math.max(0, (RANKED_POSITIONS + 1 - position) / RANKED_POSITIONS);

const fold = (text: string): string => text.normalize("NFKC").replace(/\s+/g, " ").trim();

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether the answer names the brand: case-insensitive, after Unicode (NFKC) and whitespace
 * folding, and not inside a longer word ("Acme" in "Acme's" or "acme.com" counts, in
 * "Acmetron" it does not).
 */
export const mentionsBrand = (responseText: string, brandName: string): boolean => {
  const brand = fold(brandName);
  if (brand === "") return false;
  const pattern = escapeRegExp(brand).replace(/ /g, "\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, "iu").test(fold(responseText));
};

/**
 * Scores one observed answer (0-100):
 *
 *   cited  = 1 when a cited source's URL is on the target URL's site, else 0
 *   brand  = 1 when the response text names the brand (`mentionsBrand`), else 0
 *   p      = `position` when given; else, when cited, the 1-based index of the first cited
 *            source on the target's site; else unknown
 *   rank   = rankFactor(p) when the brand is cited or named and p is known, else 0
 *   score  = round(50·cited + 30·brand + 20·rank)
 *
 * `isCited` is `cited`: only a citation of the target's site counts, a mention does not.
 */
export const scoreCitation = (observation: CitationObservation): CitationFacts => {
  const targetSite = siteOfUrl(observation.targetUrl);
  const sources = observation.citedSources ?? [];
  const firstOwn = sources.findIndex((source) => targetSite !== null && siteOfUrl(source.url) === targetSite);
  const cited = firstOwn !== -1;
  const brandMentioned = mentionsBrand(observation.responseText ?? "", observation.brandName);
  const visible = cited || brandMentioned;
  const position = observation.position ?? (cited ? firstOwn + 1 : null);
  const rank = visible && position !== null ? rankFactor(position) : 0;
  const score = Math.round(
    CITATION_WEIGHTS.cited * (cited ? 1 : 0) +
      CITATION_WEIGHTS.brand * (brandMentioned ? 1 : 0) +
      CITATION_WEIGHTS.rank * rank,
  );
  const label: CitationLabel = cited
    ? "verified_url"
    : brandMentioned
      ? "brand_mentioned"
      : sources.length > 0
        ? "competitor_cited"
        : "not_cited";
  return { label, score, isCited: cited, brandMentioned, rank, visible };
};
