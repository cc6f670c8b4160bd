import { perPage } from "../lib/memo";
import { foldWhitespace, type Page } from "../page";
import { elementsNamedAny, isInert } from "../seo/dom";

/** Words that open a question, per language (first word of the heading, lower-cased). */
const INTERROGATIVES: Record<string, readonly string[]> = {
  en: [
    "what",
    "why",
    "how",
    "when",
    "where",
    "who",
    "whom",
    "whose",
    "which",
    "can",
    "could",
    "should",
    "would",
    "will",
    "is",
    "are",
    "was",
    "were",
    "do",
    "does",
    "did",
    "has",
    "have",
    "may",
    "must",
    "shall",
  ],
  de: [
    "was",
    "warum",
    "wie",
    "wann",
    "wo",
    "wer",
    "wen",
    "wem",
    "welche",
    "welcher",
    "welches",
    "weshalb",
    "wieso",
    "woher",
    "wohin",
    "kann",
    "können",
    "ist",
    "sind",
    "gibt",
  ],
  es: [
    "qué",
    "que",
    "por qué",
    "cómo",
    "como",
    "cuándo",
    "dónde",
    "quién",
    "quiénes",
    "cuál",
    "cuáles",
    "cuánto",
    "cuántos",
  ],
  fr: [
    "quoi",
    "que",
    "qu'est-ce",
    "pourquoi",
    "comment",
    "quand",
    "où",
    "qui",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "combien",
    "est-ce",
  ],
  it: ["cosa", "che", "perché", "come", "quando", "dove", "chi", "quale", "quali", "quanto", "quanti"],
  nl: ["wat", "waarom", "hoe", "wanneer", "waar", "wie", "welke", "welk", "kan", "kunnen", "is", "zijn"],
  pt: ["o que", "que", "por que", "porque", "como", "quando", "onde", "quem", "qual", "quais", "quanto", "quantos"],
};

const pageLanguage = (page: Page): string =>
  (page.doc.documentElement?.getAttribute("lang") ?? "").trim().toLowerCase().split(/[-_]/)[0] ?? "";

const openersFor = perPage((page: Page): readonly string[] => {
  const lang = pageLanguage(page);
  const own = INTERROGATIVES[lang];
  // without a language we know, any language's question words count
  return own ?? Object.values(INTERROGATIVES).flat();
});

/**
 * A heading phrased as a question: it ends in "?" (also "？" and Spanish "¿...?"), or its
 * first word (or two, for "por qué", "o que") is an interrogative of the page's language.
 */
export const isQuestion = (page: Page, text: string): boolean => {
  if (/[?？]\s*$/.test(text) || text.startsWith("¿")) return true;
  const lower = text.toLowerCase();
  return openersFor(page).some((word) => lower === word || lower.startsWith(`${word} `));
};

export type Heading = { element: Element; level: 2 | 3; text: string; question: boolean };

/** The h2 and h3 headings of the rendered page, with text, in document order. */
export const subHeadings = perPage((page: Page): Heading[] =>
  elementsNamedAny(page, ["h2", "h3"])
    .filter((element) => !isInert(element))
    .map((element) => {
      const text = foldWhitespace(element.textContent ?? "");
      return { element, level: element.localName === "h2" ? 2 : 3, text, question: false } as Heading;
    })
    .filter((heading) => heading.text !== "")
    .map((heading) => ({ ...heading, question: isQuestion(page, heading.text) })),
);

export const questionHeadings = (page: Page): Heading[] => subHeadings(page).filter((heading) => heading.question);

export { pageLanguage };
