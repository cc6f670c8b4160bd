import { defineCheck } from "../check";
import type { Page } from "../page";
import { pageLanguage } from "./headings";

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
  "not",
  "you",
  "or",
]);

/**
 * English when `<html lang>` says so (en, en-GB, ...). Without a lang attribute the text
 * decides: English when at least 15 % of its words are among the 20 commonest English words
 * (typical English prose is 25 to 35 %, other languages a few %).
 */
const isEnglish = (page: Page, words: readonly string[]): boolean => {
  const lang = pageLanguage(page);
  if (lang !== "") return lang === "en";
  const common = words.filter((word) => COMMON_ENGLISH.has(word)).length;
  return words.length > 0 && common / words.length >= 0.15;
};

/**
 * English syllables by vowel groups, with the usual corrections (silent final e, -le, -ed,
 * -es); within a syllable or so of a dictionary on most words, which Flesch's formula
 * tolerates: it was fitted on counts made by hand.
 */
export const syllables = (word: string): number => {
  let w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (w.length <= 3) return w.length === 0 ? 0 : 1;
  w = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  const groups = w.match(/[aeiouy]+/g);
  return Math.max(1, groups?.length ?? 1);
};

/**
 * Flesch reading ease of the main content (206.835 − 1.015 × words/sentence − 84.6 ×
 * syllables/word): 50 or more passes (fairly difficult at worst), 30 to 49 warns, lower fails.
 * The formula is for English; other languages skip. Too little text (under 100 words) skips.
 */
export const readability = defineCheck({
  id: "readability",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content is easy to read",
  run: (page) => {
    const text = page.main.text;
    const words = text.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? [];
    if (!isEnglish(page, words)) {
      return { status: "skip", description: "Flesch reading ease is defined for English; the page is not in English." };
    }
    if (words.length < 100)
      return { status: "skip", description: `The main content has too little text (${words.length} words) to judge.` };
    const sentences = Math.max(1, (text.match(/[.!?]+(?:\s|$)/g) ?? []).length);
    const syllableCount = words.reduce((sum, word) => sum + syllables(word), 0);
    const score = Math.round(206.835 - 1.015 * (words.length / sentences) - 84.6 * (syllableCount / words.length));
    const description = `Flesch reading ease ${score} (${Math.round(words.length / sentences)} words per sentence).`;
    if (score >= 50) return { status: "pass", description };
    return {
      status: score >= 30 ? "warn" : "fail",
      description: `${description} ${score >= 30 ? "Fairly hard" : "Hard"} to read.`,
      fix: "Shorten sentences (under 20 words) and prefer short, common words; answers are quoted sentence by sentence.",
    };
  },
});
