import type { EvidenceItem } from "./input";

/**
 * How much a source type is worth as evidence, 0 to 1. Matched case-insensitively after
 * trimming. Any other value, or none, is `unknown`: a source nobody has classified is worth
 * little until someone does.
 *
 * | sourceType | weight | what it is |
 * |---|---|---|
 * | primary | 1.00 | the original: the study, the dataset, official documentation, the brand's own page |
 * | academic | 0.90 | peer-reviewed or university research |
 * | government | 0.90 | a government body, regulator or standards body |
 * | news | 0.70 | editorial press |
 * | secondary | 0.60 | a source reporting on others: encyclopedias, analyst summaries |
 * | review | 0.50 | third-party review and comparison sites |
 * | forum | 0.30 | community Q&A and discussion boards |
 * | social | 0.30 | social-media posts |
 * | (unknown) | 0.25 | anything else, or no sourceType |
 */
// no prototype: a caller's "__proto__" or "constructor" finds nothing here and is unknown
export const SOURCE_TYPE_WEIGHTS: Readonly<Record<string, number>> = Object.assign(Object.create(null), {
  primary: 1,
  academic: 0.9,
  government: 0.9,
  news: 0.7,
  secondary: 0.6,
  review: 0.5,
  forum: 0.3,
  social: 0.3,
});
export const UNKNOWN_SOURCE_WEIGHT = 0.25;

export const sourceTypeWeight = (sourceType: string | null | undefined): number =>
  SOURCE_TYPE_WEIGHTS[(sourceType ?? "").trim().toLowerCase()] ?? UNKNOWN_SOURCE_WEIGHT;

/** Points of the 0-100 evidence score. */
export const EVIDENCE_WEIGHTS = { sourceType: 40, supportsClaim: 35, url: 15, snippet: 10 } as const;

/**
 * Bands by score: `good` 75-100, `fair` 50-74, `weak` 25-49, `poor` 0-24. Primary, supporting
 * evidence with its URL and snippet is good; a source of unknown type that does not support the
 * claim is poor however well it is quoted.
 */
export const EVIDENCE_BANDS = ["good", "fair", "weak", "poor"] as const;
export type EvidenceBand = (typeof EVIDENCE_BANDS)[number];

export const bandFor = (score: number): EvidenceBand =>
  score >= 75 ? "good" : score >= 50 ? "fair" : score >= 25 ? "weak" : "poor";

export type EvidenceScore = { band: EvidenceBand; score: number };

export type EvidenceFacts = EvidenceScore & {
  weight: number;
  supports: boolean;
  hasUrl: boolean;
  hasSnippet: boolean;
};

/**
 * Scores one evidence item (0-100):
 *
 *   w       = sourceTypeWeight(sourceType)             (primary 1 ... unknown 0.25)
 *   s       = 1 when supportsClaim is true, else 0     (absent counts as not shown to support)
 *   u       = 1 when a URL is given, else 0
 *   q       = 1 when the snippet has non-blank text, else 0
 *   score   = round(40·w + 35·s + 15·u + 10·q)
 *   band    = bandFor(score)
 */
export const scoreEvidence = (item: EvidenceItem): EvidenceFacts => {
  const weight = sourceTypeWeight(item.sourceType);
  const supports = item.supportsClaim === true;
  const hasUrl = typeof item.url === "string" && item.url !== "";
  const hasSnippet = typeof item.snippet === "string" && item.snippet.trim() !== "";
  const score = Math.round(
    EVIDENCE_WEIGHTS.sourceType * weight +
      EVIDENCE_WEIGHTS.supportsClaim * (supports ? 1 : 0) +
      EVIDENCE_WEIGHTS.url * (hasUrl ? 1 : 0) +
      EVIDENCE_WEIGHTS.snippet * (hasSnippet ? 1 : 0),
  );
  return { band: bandFor(score), score, weight, supports, hasUrl, hasSnippet };
};
