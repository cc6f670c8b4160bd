import { perPage } from "../lib/memo";
import { countWords, foldWhitespace, type Page } from "../page";
import { elementsNamedAny, isInert } from "../seo/dom";

/**
 * How a heading opens a question in one language. `wh` words (or hyphenated openers such as
 * "est-ce") make a question alone: "How to bake bread", "Warum wir". An auxiliary verb (`aux`)
 * makes one only when a subject follows it, as in an inverted question: "Can I pay by card",
 * "Is it safe", "Gibt es", but not "Do more with less", "May 2026 update" or "Will Smith".
 * Spanish, Italian and Portuguese do not invert yes/no questions, so they have no `aux`: there
 * the question mark decides.
 */
type Openers = { wh: readonly string[]; aux: readonly string[]; subjects: readonly string[] };

const OPENERS: Record<string, Openers> = {
  en: {
    wh: ["what", "what's", "why", "how", "how's", "when", "where", "who", "who's", "whom", "whose", "which"],
    aux: [
      ...["can", "could", "should", "would", "will", "shall", "may", "might", "must"],
      ...["is", "are", "was", "were", "do", "does", "did", "has", "have", "had"],
      ...["isn't", "aren't", "can't", "don't", "doesn't", "won't", "shouldn't"],
    ],
    subjects: [
      ...["i", "you", "we", "they", "he", "she", "it", "there", "this", "that", "these", "those"],
      ...["my", "your", "our", "their", "his", "her", "its", "the", "a", "an", "any", "anyone", "someone"],
    ],
  },
  de: {
    wh: [
      ...["was", "warum", "wieso", "weshalb", "weswegen", "wie", "wann", "wo", "woher", "wohin", "wer", "wen", "wem"],
      ...["wessen", "welche", "welcher", "welches", "welchen", "wozu", "womit", "wofür", "worauf", "worin"],
    ],
    aux: ["ist", "sind", "kann", "können", "gibt", "hat", "haben", "muss", "müssen", "soll", "sollte", "darf", "wird"],
    subjects: [
      ...["ich", "du", "er", "sie", "es", "wir", "ihr", "man", "der", "die", "das", "ein", "eine", "einen"],
      ...["mein", "meine", "dein", "deine", "unser", "unsere", "ihre", "dieser", "diese", "dieses"],
    ],
  },
  es: {
    wh: ["qué", "por qué", "cómo", "cuándo", "dónde", "adónde", "quién", "quiénes", "cuál", "cuáles", "cuánto"],
    aux: [],
    subjects: [],
  },
  fr: {
    wh: [
      ...["quoi", "qu'est-ce", "qu’est-ce", "pourquoi", "comment", "quand", "où", "qui", "quel", "quelle", "quels"],
      ...["quelles", "combien", "est-ce", "peut-on", "faut-il", "doit-on", "existe-t-il", "y a-t-il"],
    ],
    aux: [],
    subjects: [],
  },
  it: {
    wh: ["cosa", "che cosa", "perché", "come", "quando", "dove", "chi", "quale", "quali", "quanto", "quanti", "quante"],
    aux: [],
    subjects: [],
  },
  nl: {
    wh: ["wat", "waarom", "hoe", "wanneer", "waar", "waarvoor", "wie", "welke", "welk", "hoeveel"],
    aux: ["is", "zijn", "kan", "kunnen", "moet", "moeten", "mag", "heb", "hebt", "heeft", "wordt", "zal"],
    subjects: [
      ...["ik", "je", "jij", "u", "hij", "zij", "ze", "het", "we", "wij", "jullie", "de", "een", "er", "mijn"],
      ...["uw", "onze", "dit", "deze", "dat"],
    ],
  },
  pt: {
    wh: ["o que", "por que", "por quê", "como", "quando", "onde", "quem", "qual", "quais", "quanto", "quantos"],
    aux: [],
    subjects: [],
  },
};

/** The primary subtag of `<html lang>`, lower-cased ("en-GB" → "en"); "" without one. */
export const pageLanguage = perPage(
  (page: Page): string =>
    (page.doc.documentElement?.getAttribute("lang") ?? "").trim().toLowerCase().split(/[-_]/)[0] ?? "",
);

// Without a language we have openers for, every language's openers count.
const openersFor = perPage((page: Page): Openers => {
  const own = OPENERS[pageLanguage(page)];
  if (own) return own;
  const all = Object.values(OPENERS);
  return {
    wh: all.flatMap((openers) => openers.wh),
    aux: all.flatMap((openers) => openers.aux),
    subjects: all.flatMap((openers) => openers.subjects),
  };
});

const startsWithWord = (text: string, word: string): boolean =>
  text.startsWith(word) && (text.length === word.length || /[\s,:;?!-]/.test(text.charAt(word.length)));

/**
 * A heading phrased as a question: it ends in "?" (or "？", "؟"), opens with Spanish "¿", or
 * opens with an interrogative of the page's language (see `Openers`).
 */
export const isQuestion = (page: Page, text: string): boolean => {
  if (/[?？؟]\s*$/.test(text) || text.startsWith("¿")) return true;
  const lower = text.toLowerCase().replace(/^[\s"'“‘«]+/, "");
  const { wh, aux, subjects } = openersFor(page);
  if (wh.some((word) => startsWithWord(lower, word))) return true;
  const [first, second] = lower.split(/\s+/);
  return first !== undefined && second !== undefined && aux.includes(first) && subjects.includes(second);
};

export type Heading = { element: Element; level: 2 | 3; text: string; question: boolean };

/** The h2 and h3 headings of the rendered page with text, in document order (not those in noscript/template). */
export const subHeadings = perPage((page: Page): readonly Heading[] =>
  elementsNamedAny(page, ["h2", "h3"])
    .filter((element) => !isInert(element))
    .flatMap((element): Heading[] => {
      const text = foldWhitespace(element.textContent ?? "");
      if (text === "") return [];
      const level = element.localName === "h2" ? 2 : 3;
      return [{ element, level, text, question: isQuestion(page, text) }];
    }),
);

export const questionHeadings = (page: Page): Heading[] => subHeadings(page).filter((heading) => heading.question);

const HEADING = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
// Elements that start or end a block of text: a paragraph, a list item, a cell, or a <br> line break.
const BLOCK = new Set([
  ...["address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt", "figure", "footer"],
  ...["form", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul"],
]);
const NOT_TEXT = new Set(["script", "style", "noscript", "template", "svg", "button", "select", "textarea"]);
// an answer that runs past this many words is too long to be a quotable answer; no need to read on
const WORD_CAP = 200;
// a section start followed by hundreds of empty wrappers has no answer to find
const NODE_CAP = 2000;

/**
 * The first block of text after a heading, in document order and before the next heading: a
 * `<p>`, or text set straight in a `<div>` or between `<br>`s, as page builders and blog
 * editors do. Empty blocks are passed over; null when the section has no text before the next
 * heading. Its words, whitespace folded.
 */
export const answerAfter = (heading: Element): string | null => {
  let collected = "";
  let words = 0;
  let visited = 0;
  const started = () => collected.trim() !== "";
  // the next node in document order after `node`'s subtree; null also when a block closes on collected text
  const following = (node: Node): Node | null => {
    for (let current: Node | null = node; current; current = current.parentNode) {
      if (current !== node && current.nodeType === 1 && BLOCK.has((current as Element).localName) && started())
        return null;
      if (current.nextSibling) return current.nextSibling;
    }
    return null;
  };
  let node = following(heading);
  while (node && visited++ < NODE_CAP) {
    if (node.nodeType === 3) {
      collected += node.nodeValue ?? "";
      words += countWords(node.nodeValue ?? "");
      if (words > WORD_CAP) break;
      node = following(node);
      continue;
    }
    if (node.nodeType !== 1) {
      node = following(node);
      continue;
    }
    const tag = (node as Element).localName;
    if (HEADING.has(tag)) break;
    if (BLOCK.has(tag) && started()) break;
    node = NOT_TEXT.has(tag) ? following(node) : (node.firstChild ?? following(node));
  }
  const text = foldWhitespace(collected);
  return text === "" ? null : text;
};
