import { type CitationObservation, MAX_CITED_SOURCES, MAX_RESPONSE_TEXT } from "./input";

/** One stored answer of a visibility run, as the evaluator reads it. */
export type StoredAnswer = {
  answerText: string | null;
  citations: ReadonlyArray<{ url: string; domain: string }>;
  /** the companies named in order; the brand's `position` is its rank among them */
  mentions: ReadonlyArray<{ kind: "brand" | "competitor"; position: number }>;
};

/** Whose visibility a run measured: the brand's main name and the address of its site. */
export type RunBrand = { brandName: string; targetUrl: string };

const isHttp = (url: string): boolean => {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
};

const hostOf = (url: string): string => new URL(url).hostname.toLowerCase().replace(/^www\./, "");

/**
 * A stored run's answers as the evaluator's citation observations, one per answer in the order
 * given: the answer's text, its sources in the engine's order, and the brand's rank among the
 * companies it named. A source whose URL is not on the site the engine named (Gemini's redirect
 * links, which name the site in their title) is given as that site's root, so it is judged by
 * whose site it is; a source that is no http(s) URL is left out.
 */
export const observationsOfRun = (brand: RunBrand, answers: readonly StoredAnswer[]): CitationObservation[] =>
  answers.map((answer) => {
    const sources = answer.citations
      .filter((citation) => isHttp(citation.url))
      .map((citation) => {
        const host = hostOf(citation.url);
        const domain = citation.domain.toLowerCase();
        const onItsSite = domain === "" || host === domain || host.endsWith(`.${domain}`);
        return { url: onItsSite ? citation.url : `https://${domain}/` };
      })
      .slice(0, MAX_CITED_SOURCES);
    const position = answer.mentions.find((mention) => mention.kind === "brand")?.position ?? null;
    return {
      brandName: brand.brandName,
      targetUrl: brand.targetUrl,
      responseText: (answer.answerText ?? "").slice(0, MAX_RESPONSE_TEXT),
      citedSources: sources,
      position,
    };
  });
