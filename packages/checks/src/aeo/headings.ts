import { ancestorsOf, enclosingBoilerplate, WIDGET_TITLE } from "../lib/boilerplate";
import { isHiddenByMarkup, isInert, readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { clip, isPlayerLine } from "../lib/text";
import { countWords, foldWhitespace, type Page } from "../page";

/**
 * How a heading opens a question in one language. `wh` words (or hyphenated openers such as
 * "est-ce") make a question alone: "How to bake bread", "Warum ist der Himmel blau". An auxiliary verb (`aux`)
 * makes one only when a subject follows it, as in an inverted question: "Can I pay by card",
 * "Is it safe", "Gibt es", but not "Do more with less", "May 2026 update" or "Will Smith".
 * Spanish, Italian and Portuguese do not invert yes/no questions, so they have no `aux`: there
 * the question mark decides.
 *
 * A wh-word followed by the writers themselves (`tellers`: "How we designed…", "Why I left…",
 * "Wie wir … gebaut haben", "Comment nous avons…", "Cómo hicimos…") opens a title that tells a
 * story, not a question: English, German, Dutch and French put the verb first in a question
 * ("How did we…", "Wie haben wir…", "Comment avons-nous…"), and Spanish, Portuguese and Italian
 * say "we" in the verb's ending (`tellerEndings`: hicimos, fizemos, abbiamo). "How to…", "How
 * you can…", "Wie man…", "Cómo hacer…" and "Why is…" still ask what a reader asks.
 */
type Openers = {
  wh: readonly string[];
  aux: readonly string[];
  subjects: readonly string[];
  tellers: readonly string[];
  tellerEndings: readonly string[];
};

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
    tellers: ["i", "we", "they", "he", "she", "our", "my"],
    tellerEndings: [],
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
    tellers: ["ich", "wir", "unser", "unsere", "mein", "meine"],
    tellerEndings: [],
  },
  es: {
    wh: ["qué", "por qué", "cómo", "cuándo", "dónde", "adónde", "quién", "quiénes", "cuál", "cuáles", "cuánto"],
    aux: [],
    subjects: [],
    tellers: ["yo", "nosotros", "nosotras", "he", "mi", "nuestro", "nuestra"],
    tellerEndings: ["mos"],
  },
  fr: {
    wh: [
      ...["quoi", "qu'est-ce", "qu’est-ce", "pourquoi", "comment", "quand", "où", "qui", "quel", "quelle", "quels"],
      ...["quelles", "combien", "est-ce", "peut-on", "faut-il", "doit-on", "existe-t-il", "y a-t-il"],
    ],
    aux: [],
    subjects: [],
    tellers: ["je", "j'", "j’", "nous", "ils", "elles", "notre", "nos", "mon", "ma"],
    tellerEndings: [],
  },
  it: {
    wh: ["cosa", "che cosa", "perché", "come", "quando", "dove", "chi", "quale", "quali", "quanto", "quanti", "quante"],
    aux: [],
    subjects: [],
    tellers: ["io", "noi", "ho", "il mio", "la mia", "nostro", "nostra"],
    tellerEndings: ["iamo"],
  },
  nl: {
    wh: ["wat", "waarom", "hoe", "wanneer", "waar", "waarvoor", "wie", "welke", "welk", "hoeveel"],
    aux: ["is", "zijn", "kan", "kunnen", "moet", "moeten", "mag", "heb", "hebt", "heeft", "wordt", "zal"],
    subjects: [
      ...["ik", "je", "jij", "u", "hij", "zij", "ze", "het", "we", "wij", "jullie", "de", "een", "er", "mijn"],
      ...["uw", "onze", "dit", "deze", "dat"],
    ],
    tellers: ["ik", "we", "wij", "onze", "ons", "mijn"],
    tellerEndings: [],
  },
  pt: {
    wh: ["o que", "por que", "por quê", "como", "quando", "onde", "quem", "qual", "quais", "quanto", "quantos"],
    aux: [],
    subjects: [],
    tellers: ["eu", "nós", "meu", "minha", "nosso", "nossa"],
    tellerEndings: ["mos"],
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
    tellers: all.flatMap((openers) => openers.tellers),
    tellerEndings: all.flatMap((openers) => openers.tellerEndings),
  };
});

const startsWithWord = (text: string, word: string): boolean =>
  text.startsWith(word) && (text.length === word.length || /[\s,:;?!-]/.test(text.charAt(word.length)));

// a quotation that opens a headline and the headline's own words after it: "'What is the sea telling us?': Māori tribes fearful…"
const QUOTED_LEAD = /^\s*["'“‘«„][^"“”«»„]+?["'”’»“]\s*[:,;–—-]?\s+(\S.*)$/u;

/** Whether the words after a heading's wh-word are the writers telling what they did ("we designed", "nous avons", "hicimos"). */
const tellsAStory = ({ tellers, tellerEndings }: Openers, rest: string): boolean => {
  const [next] = rest.split(/\s+/);
  if (next === undefined || next === "") return false;
  // "we’re", "I've": the teller without its contracted verb
  const bare = next.replace(/['’](?:re|ve|ll|m|d)$/, "");
  if (
    tellers.some((teller) =>
      /['’]$/.test(teller) ? next.startsWith(teller) : bare === teller || startsWithWord(rest, teller),
    )
  )
    return true;
  const word = next.replace(/[^\p{L}]+$/u, "");
  return tellerEndings.some((ending) => word.length > ending.length + 2 && word.endsWith(ending));
};

/**
 * A heading phrased as a question: it ends in "?" (or "？", "؟"), opens with Spanish "¿", or
 * opens with an interrogative of the page's language (see `Openers`), unless the writers tell
 * what they did after it ("How we designed…", `tellsAStory`). A headline that opens by
 * quoting someone is judged on its own words after the quotation: guardian-1's "'What is the sea
 * telling us?': Māori tribes fearful over whale strandings" reports a question, it asks none.
 */
export const isQuestion = (page: Page, text: string): boolean => {
  if (/[?？؟]\s*$/.test(text) || text.startsWith("¿")) return true;
  const quoting = QUOTED_LEAD.exec(text);
  const own = quoting?.[1] ?? text;
  const lower = own.toLowerCase().replace(/^[\s"'“‘«]+/, "");
  const openers = openersFor(page);
  const { wh, aux, subjects } = openers;
  const opener = wh.find((word) => startsWithWord(lower, word));
  if (opener !== undefined) return !tellsAStory(openers, lower.slice(opener.length).trimStart());
  const [first, second] = lower.split(/\s+/);
  return first !== undefined && second !== undefined && aux.includes(first) && subjects.includes(second);
};

export type Heading = { element: Element; level: 1 | 2 | 3; text: string; question: boolean };

/** A heading of the main content's DOM that is not the content's, and why ("a "newsletter" block", "no text follows it"). */
export type PassedOver = { text: string; reason: string };

const LEVEL: Record<string, 1 | 2 | 3 | 4 | 5 | 6> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
// a section start followed by thousands of empty wrappers: taken to hold text rather than read on
const SECTION_NODE_CAP = 2000;
const NO_SECTION_TEXT = new Set(["script", "style", "noscript", "template", "svg", "button", "select", "a"]);
// a formula is content though it holds no text node: MathJax draws its glyphs with CSS (mathjax's "The Lorenz Equations")
const FORMULA = new Set(["math", "mjx-container"]);

/**
 * Whether a heading's section (what follows it up to the next heading of its level or above)
 * holds a word outside links, or a formula: a heading over nothing ("Featured" over an empty module) or over
 * links alone ("Related coverage", "More like this") heads navigation, not content.
 */
const hasSectionText = (heading: Element, level: number, root: Element): boolean => {
  const after = (node: Node): Node | null => {
    for (let current: Node | null = node; current && current !== root; current = current.parentNode) {
      if (current.nextSibling) return current.nextSibling;
    }
    return null;
  };
  let node = after(heading);
  for (let visited = 0; node && visited < SECTION_NODE_CAP; visited++) {
    if (node.nodeType === 3) {
      if (/[\p{L}\p{N}]/u.test(node.nodeValue ?? "")) return true;
      node = after(node);
      continue;
    }
    if (node.nodeType !== 1) {
      node = after(node);
      continue;
    }
    const element = node as Element;
    const headingLevel = LEVEL[element.localName];
    if (headingLevel !== undefined && headingLevel <= level) return false;
    if (FORMULA.has(element.localName)) return true;
    node = NO_SECTION_TEXT.has(element.localName) ? after(element) : (element.firstChild ?? after(element));
  }
  return node !== null;
};

// a standfirst is a sentence: it ends in a full stop, or in a quotation closing on its own mark ("…supporters?”")
const SENTENCE_END = /(?:[.!…。]["'”’»)]*|[?!？]["'”’»)]+)$/u;
const STANDFIRST_MIN_WORDS = 12;
// bylines, credits, dates and a widget's label may stand between the h1 and its standfirst, not a paragraph
const STANDFIRST_MAX_WORDS_BEFORE = 30;

/** The words of the main content's text before an element (the title's excluded), up to `limit`. */
const wordsBefore = (root: Element, target: Element, title: Element | null, limit: number): number => {
  let words = 0;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node === target) return words;
    if (node.nodeType === 3) {
      words += countWords(node.nodeValue ?? "");
      if (words >= limit) return words;
      continue;
    }
    if (node.nodeType !== 1 || node === title) continue;
    if (NO_SECTION_TEXT.has((node as Element).localName) && (node as Element).localName !== "a") continue;
    const children = node.childNodes;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  return words;
};

/**
 * Whether the first h2/h3 of the content is its standfirst (dek): a summary set as a heading
 * right under the h1, before any paragraph of the text (only bylines, credits, dates or a
 * widget's label between), 12 words or more, ending like a sentence (breitbart's "Snopes fact
 * checker … posted to Twitter asking if there were “any un-angry Trump supporters?”"). It sums
 * up the article; it heads no section of it. A heading that ends in a bare "?" is a question
 * (an FAQ's first one), and stays a section.
 */
const isStandfirst = (root: Element, heading: Element, text: string, title: Element | null): boolean =>
  title !== null &&
  countWords(text) >= STANDFIRST_MIN_WORDS &&
  SENTENCE_END.test(text) &&
  wordsBefore(root, heading, title, STANDFIRST_MAX_WORDS_BEFORE) < STANDFIRST_MAX_WORDS_BEFORE;

const PERMALINK_MARK = /^(?:[#¶§🔗]|link|permalink)$/iu;
/**
 * A heading's text as its reader takes it: without the permalink mark a blog engine appends as
 * a link to the heading itself ("Why Wasm? #", "Install ¶"), which would otherwise hide the
 * question mark and stand in every quotation of the heading.
 */
export const headingText = (element: Element): string => {
  const text = readableText(element);
  const last = element.lastElementChild;
  if (last?.localName !== "a" || !(last.getAttribute("href") ?? "").startsWith("#")) return text;
  const mark = readableText(last);
  return mark !== "" && PERMALINK_MARK.test(mark) && text.endsWith(mark) ? text.slice(0, -mark.length).trimEnd() : text;
};

/**
 * The h1-h3 headings of the main content (page.ts: Readability's extraction, or its fallback,
 * with the page's h1), in document order, and those passed over: headings inside navigation,
 * sidebars or widgets (lib/boilerplate.ts; Readability's extraction has had them taken out
 * already, and they are listed from there), headings titled as a widget ("Related Searches",
 * "You might also like"), headings whose section holds no text outside links, and the standfirst
 * set as a heading under the h1 (`isStandfirst`). Headings in noscript or template, or hidden by
 * markup, are neither.
 */
export const contentHeadings = perPage(
  (page: Page): { headings: readonly Heading[]; passedOver: readonly PassedOver[] } => {
    const { root, heading: title, setAside } = page.main;
    const keep = ancestorsOf(title);
    const headings: Heading[] = [];
    const passedOver: PassedOver[] = setAside.flatMap((block) =>
      block.headings.map((text) => ({ text, reason: block.reason })),
    );
    const add = (element: Element, level: 1 | 2 | 3, text: string) =>
      headings.push({ element, level, text, question: isQuestion(page, text) });
    if (title && !root.contains(title)) add(title, 1, headingText(title));
    for (const element of root.querySelectorAll("h1, h2, h3")) {
      if (isInert(element) || isHiddenByMarkup(element)) continue;
      const text = headingText(element);
      if (text === "") continue;
      const level = LEVEL[element.localName] as 1 | 2 | 3;
      if (element !== title) {
        const boilerplate = enclosingBoilerplate(element, { stop: root, keep });
        if (boilerplate) {
          passedOver.push({ text, reason: boilerplate.reason });
          continue;
        }
        if (WIDGET_TITLE.test(text)) {
          passedOver.push({ text, reason: "a widget's title" });
          continue;
        }
        if (!hasSectionText(element, level, root)) {
          passedOver.push({ text, reason: "no text but links follows it" });
          continue;
        }
        if (level > 1 && !headings.some((heading) => heading.level > 1) && isStandfirst(root, element, text, title)) {
          passedOver.push({ text, reason: "the standfirst under the h1: a summary, not a section" });
          continue;
        }
      }
      add(element, level, text);
    }
    return { headings, passedOver };
  },
);

/** The h2 and h3 headings of the main content (`contentHeadings`). */
export const subHeadings = (page: Page): Heading[] =>
  contentHeadings(page).headings.filter((heading) => heading.level > 1);

/** The h1-h3 headings of the main content phrased as questions. */
export const questionHeadings = (page: Page): Heading[] =>
  contentHeadings(page).headings.filter((heading) => heading.question);

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

// a wire dateline's source in a block of its own before the lead: "CNN —", "WASHINGTON (AP) –"
const DATELINE_SOURCE = /^[\p{Lu}\p{N}().,' ]{2,40}\s*[—–-]$/u;

/**
 * The first block of text after a heading, in document order and before the next heading: a
 * `<p>`, or text set straight in a `<div>` or between `<br>`s, as page builders and blog
 * editors do. Empty blocks, and a media player's overlay line (`isPlayerLine`: its duration and
 * source), are passed over; null when the section has no text before the next heading. Its
 * words, whitespace folded.
 */
export const answerAfter = (heading: Element): string | null => {
  let collected = "";
  let words = 0;
  let visited = 0;
  let lastText: Node | null = null;
  const started = () => collected.trim() !== "";
  // the next node in document order after `node`'s subtree, and whether a block closed on collected text on the way
  const following = (node: Node): { next: Node | null; closed: boolean } => {
    let closed = false;
    for (let current: Node | null = node; current; current = current.parentNode) {
      if (current !== node && current.nodeType === 1 && BLOCK.has((current as Element).localName) && started())
        closed = true;
      if (current.nextSibling) return { next: current.nextSibling, closed };
    }
    return { next: null, closed };
  };
  // a block ended on the collected text: it is the answer, unless it is a player's overlay or a
  // dateline's source set apart ("CNN —"), which are dropped
  const answered = (): boolean => {
    const text = foldWhitespace(collected);
    if (!isPlayerLine(text, lastText) && !DATELINE_SOURCE.test(text)) return true;
    collected = "";
    words = 0;
    return false;
  };
  let step = following(heading);
  while (step.next && visited++ < NODE_CAP) {
    if (step.closed && answered()) break;
    const node: Node = step.next;
    if (node.nodeType === 3) {
      collected += node.nodeValue ?? "";
      if ((node.nodeValue ?? "").trim() !== "") lastText = node;
      words += countWords(node.nodeValue ?? "");
      if (words > WORD_CAP) break;
      step = following(node);
      continue;
    }
    if (node.nodeType !== 1) {
      step = following(node);
      continue;
    }
    const tag = (node as Element).localName;
    if (HEADING.has(tag)) break;
    if (BLOCK.has(tag) && started() && answered()) break;
    step = NOT_TEXT.has(tag)
      ? following(node)
      : node.firstChild
        ? { next: node.firstChild, closed: false }
        : following(node);
  }
  const text = foldWhitespace(collected);
  if (text !== "" && !isPlayerLine(text, lastText) && !DATELINE_SOURCE.test(text)) return text;
  return null;
};

/** Headings as evidence: `h1 "How to…", h2 "Prices"` and how many more, the first `max` named. */
export const headingList = (headings: readonly Heading[], max = 3): string => {
  const named = headings.slice(0, max).map((heading) => `h${heading.level} "${clip(heading.text, 60)}"`);
  const more = headings.length - named.length;
  return `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
};

/** A sentence naming the headings passed over as not the content's, or "" when there were none. */
export const passedOverNote = (page: Page): string => {
  const { passedOver } = contentHeadings(page);
  if (passedOver.length === 0) return "";
  const byReason = new Map<string, string[]>();
  for (const { text, reason } of passedOver) byReason.set(reason, [...(byReason.get(reason) ?? []), text]);
  const parts = [...byReason].slice(0, 2).map(([reason, texts]) => {
    const named = texts.slice(0, 3).map((text) => `"${clip(text, 40)}"`);
    const more = texts.length > 3 ? ` and ${texts.length - 3} more` : "";
    return `${named.join(", ")}${more} (${reason})`;
  });
  return ` Not counted, as not the content's: ${parts.join("; ")}.`;
};

const SILENT_TEXT = new Set(["script", "style", "noscript", "template", "svg"]);

/** A stretch of the main content: the text under a heading (null for the text before the first) and its words. */
export type Section = { heading: Heading | null; words: number };

/**
 * The main content cut at the given headings, in document order: each heading's section runs
 * to the next of them, and the text before the first is a section without heading. Words are
 * counted as everywhere (page.ts `countWords`), without scripts, styles or set-aside boilerplate.
 */
export const sectionsAt = (page: Page, headings: readonly Heading[]): Section[] => {
  const { root, excludes } = page.main;
  const starts = new Map(headings.map((heading) => [heading.element as Node, heading]));
  const sections: Section[] = [{ heading: null, words: 0 }];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const start = starts.get(node);
    if (start) sections.push({ heading: start, words: 0 });
    if (node.nodeType === 3) {
      (sections[sections.length - 1] as Section).words += countWords(node.nodeValue ?? "");
      continue;
    }
    if (node.nodeType !== 1 || (start === undefined && node !== root && excludes(node as Element))) continue;
    if (SILENT_TEXT.has((node as Element).localName)) continue;
    const children = node.childNodes;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  return sections;
};
