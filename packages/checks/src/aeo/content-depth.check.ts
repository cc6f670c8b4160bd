import { defineCheck } from "../check";
import { foldWhitespace, type Page } from "../page";
import { pageLanguage } from "./headings";

// Chinese, Japanese and Thai do not put spaces between words
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u0e00-\u0e7f]/;

const segmenters = new Map<string, Intl.Segmenter>();
const segmenterFor = (lang: string): Intl.Segmenter => {
  let segmenter = segmenters.get(lang);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(lang || undefined, { granularity: "word" });
    segmenters.set(lang, segmenter);
  }
  return segmenter;
};

/**
 * Words of the main content. Stretches in scripts written without spaces are segmented by the
 * runtime's word breaker (Intl.Segmenter), where splitting on spaces would count whole
 * sentences as one word; only those stretches, so an English page quoting a Chinese name
 * stays cheap.
 */
export const mainContentWords = (page: Page): number => {
  const { text, words } = page.main;
  if (!UNSPACED_SCRIPT.test(text)) return words;
  const segmenter = segmenterFor(pageLanguage(page));
  let count = 0;
  for (const token of text.split(" ")) {
    if (!UNSPACED_SCRIPT.test(token)) {
      if (token !== "") count++;
      continue;
    }
    for (const segment of segmenter.segment(token)) if (segment.isWordLike) count++;
  }
  return count;
};

const SOURCE = {
  readability: "the main content as Readability extracts it",
  main: "the <main> element",
  article: "the <article> element",
  body: "the page body (no main content could be told apart)",
} as const;

/**
 * Reads the words of the main content (page.ts: Readability's extraction with the page's h1,
 * never navigation, sidebars or widgets). 300 words or more passes, 100 to 299 warns, less fails: thin pages rarely
 * hold an answer worth citing. A length heuristic, not a quality measure.
 */
export const contentDepth = defineCheck({
  id: "content-depth",
  category: "aeo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Content has depth",
  run: (page) => {
    const words = mainContentWords(page);
    const description = `${SOURCE[page.main.source]} has ${words} word${words === 1 ? "" : "s"}${words < 300 ? "; 300 or more cover a topic in depth" : ""}.`;
    const sentence = description.charAt(0).toUpperCase() + description.slice(1);
    if (words >= 300) return { status: "pass", description: sentence, evidence: [String(words)] };
    const heading = page.main.heading ? foldWhitespace(page.main.heading.textContent ?? "") : "";
    return {
      status: words >= 100 ? "warn" : "fail",
      description: sentence,
      fix: `Cover ${heading ? `"${heading.length > 60 ? `${heading.slice(0, 59)}…` : heading}"` : "the topic"} in enough depth to answer the follow-up questions: ${300 - words} words or more beyond the ${words} there are, of real content in the main body, not in menus or footers.`,
      evidence: [String(words), page.main.source],
    };
  },
});
