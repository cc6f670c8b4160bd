import { syllable } from "syllable";
import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { judgesContent } from "../lib/placeholder";
import { profiled } from "../lib/profile";
import { type Page, wordsIn } from "../page";
import { pageLanguage } from "./headings";

// Elements that end a run of text: a heading, list item or cell is a sentence of its own even
// without a full stop, where the folded main text would glue it to the next one.
const BLOCKS = new Set([
  ...["address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt", "figcaption"],
  ...["figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav"],
  ...["ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul"],
]);
const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "math"]);

/** The main content's text as runs broken at block elements, so that sentences do not cross them. */
const textRuns = (root: Element, excludes: (element: Element) => boolean): string[] => {
  const runs: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim() !== "") runs.push(current);
    current = "";
  };
  const walk = (node: Node): void => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) current += child.nodeValue ?? "";
      else if (child.nodeType === 1) {
        const name = (child as Element).localName;
        if (SKIPPED.has(name) || excludes(child as Element)) continue;
        const block = BLOCKS.has(name);
        if (block) flush();
        walk(child);
        if (block) flush();
      }
    }
  };
  walk(root);
  flush();
  return runs;
};

// Flesch reads the words of every check (page.ts `wordsIn`) that have a letter: a number has no syllables to count
const HAS_LETTER = /\p{L}/u;
// a sentence ends at . ! ? (or …) followed by a space or the end of the run
const SENTENCE_END = /[.!?…]+["'”’)\]]*(?=\s|$)/g;
const ENDS_SENTENCE = /[.!?…]+["'”’)\]]*\s*$/;

type TextStats = { words: string[]; sentences: number };

const textStats = perPage(
  (page: Page): TextStats =>
    profiled("segmentation", () => {
      const words: string[] = [];
      let sentences = 0;
      const { root, heading, excludes } = page.main;
      // the page's h1, when it stands outside the main content's DOM, is a sentence of its own
      const runs = heading && !root.contains(heading) ? [readableText(heading)] : [];
      for (const run of [...runs, ...textRuns(root, excludes)]) {
        const runWords = wordsIn(run.toLowerCase()).filter((word) => HAS_LETTER.test(word));
        if (runWords.length === 0) continue;
        // no spread: a run can be one huge block of text, beyond the engine's argument limit
        for (const word of runWords) words.push(word);
        // the text after the last full stop (or a run without any) is a sentence too
        sentences += (run.match(SENTENCE_END)?.length ?? 0) + (ENDS_SENTENCE.test(run) ? 0 : 1);
      }
      return { words, sentences };
    }),
);

const COMMON_ENGLISH = new Set([
  "the",
  "and",
  "of",
  "to",
  "is",
  "in",
  "that",
  "it",
  "for",
  "with",
  "as",
  "was",
  "on",
  "are",
  "this",
  "be",
  "by",
]);

/**
 * English when `<html lang>` starts with "en" (en, en-GB, en-US); any other language tag means
 * not English. With no lang attribute (or an empty one) the text decides, since many English
 * sites omit it: English when at least 12 % of its words are among the 17 commonest English
 * function words (English prose runs 25 to 35 %; German, French or Spanish text a few %, from
 * loanwords and names).
 */
const isEnglish = (page: Page, words: readonly string[]): boolean => {
  const lang = pageLanguage(page);
  if (lang !== "") return lang === "en";
  const common = words.filter((word) => COMMON_ENGLISH.has(word)).length;
  return words.length > 0 && common / words.length >= 0.12;
};

// `syllable` costs some 13 µs a word (normalising, singularising, then rules). Words repeat
// within a page and across the pages a worker scans, so counts are kept process-wide: a pure
// function's memo, bounded so that a long-running worker does not grow without end.
const SYLLABLE_CACHE_LIMIT = 50_000;
const syllableCache = new Map<string, number>();
const syllablesOf = (word: string): number => {
  let count = syllableCache.get(word);
  if (count === undefined) {
    count = Math.max(1, syllable(word));
    if (syllableCache.size >= SYLLABLE_CACHE_LIMIT) syllableCache.clear();
    syllableCache.set(word, count);
  }
  return count;
};

const MIN_WORDS = 100;

/**
 * Reads the text of the main content (page.ts: Readability's extraction with the page's h1,
 * never navigation, sidebars or widgets) for its Flesch reading ease (206.835 − 1.015 × words per sentence − 84.6 ×
 * syllables per word): 50 or more passes ("fairly difficult" at worst), 30 to 49 warns, lower
 * fails. Syllables come from the `syllable` package (English rules and exceptions). Sentences
 * end at . ! ? and at block elements, so headings, list items and table cells are sentences.
 * The formula is fitted to English: pages in other languages skip. Under 100 words the score
 * swings on a sentence or two, so thin content skips too (content-depth judges the length).
 */
export const readability = judgesContent(
  defineCheck({
    id: "readability",
    category: "aeo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content is easy to read",
    run: (page) => {
      const { words, sentences } = textStats(page);
      if (!isEnglish(page, words)) {
        const lang = pageLanguage(page);
        return {
          status: "skip",
          description: `Flesch reading ease is defined for English; the page is ${lang ? `in "${lang}"` : "not in English, by its text"}.`,
        };
      }
      // the main content's one word count, as content-depth and every other check count it
      if (page.main.words < MIN_WORDS) {
        return {
          status: "skip",
          description: `The main content has too little text (${page.main.words} words) to score its readability.`,
        };
      }
      let syllables = 0;
      for (const word of words) syllables += syllablesOf(word);
      const wordsPerSentence = words.length / Math.max(1, sentences);
      const score = Math.round(206.835 - 1.015 * wordsPerSentence - 84.6 * (syllables / words.length));
      const detail = `${Math.round(wordsPerSentence)} words per sentence, ${(syllables / words.length).toFixed(2)} syllables per word`;
      const evidence = [String(score), detail];
      if (score >= 50) return { status: "pass", description: `Flesch reading ease ${score} (${detail}).`, evidence };
      const perSentence = Math.round(wordsPerSentence);
      return {
        status: score >= 30 ? "warn" : "fail",
        description: `Flesch reading ease ${score} (${detail}): ${score >= 30 ? "fairly hard" : "hard"} to read; 50 or more reads easily.`,
        fix: `To raise the reading ease from ${score}, ${perSentence > 20 ? `shorten sentences from ${perSentence} words on average to under 20` : `keep sentences under 20 words (${perSentence} on average now)`} and prefer short, common words (${(syllables / words.length).toFixed(2)} syllables per word now): engines quote answers sentence by sentence.`,
        evidence,
      };
    },
  }),
);
