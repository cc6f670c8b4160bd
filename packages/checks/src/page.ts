import { Readability } from "@mozilla/readability";
import type { Snapshot } from "@scan/contract";
import { parseHTML } from "linkedom";
import { ancestorsOf, boilerplateOf, boilerplateReason, enclosingBoilerplate, WIDGET_TITLE } from "./lib/boilerplate";
import { isHiddenByMarkup, isInert, readableText, textUnder } from "./lib/element";
import { profiled } from "./lib/profile";
import { sameTree } from "./lib/same-tree";

/** The main content of the page and where it came from (docs/spec/checks.md "What a snapshot holds"). */
export type MainContent = {
  source: "readability" | "main" | "article" | "body";
  /** a DOM of the main content alone */
  root: Element;
  /**
   * The page's h1 that titles the content, or null when no h1 does. Readability leaves the
   * title out of its extraction; a copy of it then opens `root`. From the fallbacks it is the
   * page's own element, which may stand outside `root` (a `<header>` before `<main>`).
   */
  heading: Element | null;
  /** the page's own h1 element that titles the content, in the DOM the content was extracted from (the rendered page's for `page.main`) */
  pageHeading: Element | null;
  /**
   * Whether an element of `root` heads a block that is not content (navigation, a sidebar, a
   * widget: lib/boilerplate.ts), to be passed over with all it holds. Never, in Readability's
   * extraction, which has had such blocks taken out; a fallback's subtree of the page has not.
   */
  excludes: (element: Element) => boolean;
  /** its visible text, the heading's included, whitespace folded */
  text: string;
  words: number;
  /** blocks inside Readability's extraction that are not content (a newsletter box, a share bar), taken out of `root`, with their h1-h3 texts */
  setAside: ReadonlyArray<SetAside>;
};

export type SetAside = { reason: string; text: string; headings: readonly string[] };

/**
 * A snapshot made ready for judgement: parsed once, with the costly parts (raw DOM, main
 * content) computed on first use, so a quick scan pays only for what its checks read.
 * Checks must treat every DOM here as read-only: they are shared by all checks of a scan.
 */
export type Page = {
  readonly snapshot: Snapshot;
  readonly scannedAt: Date;
  readonly finalUrl: URL;
  /** the rendered DOM */
  readonly doc: Document;
  /** the DOM of the HTML as served, before scripts (the rendered DOM itself when the HTML is the same) */
  readonly rawDoc: Document;
  readonly main: MainContent;
  /** the main content's text of the HTML as served, extracted as `main` is (its text, not extracted again, when the HTML or its DOM is the same) */
  readonly servedText: string;
};

/**
 * The DOM of an HTML text. linkedom, unlike a browser, makes no <html> or <body> for a
 * fragment (an empty response, bare text, a lone script); such input is wrapped the way a
 * browser's parser would place it, so every check sees a whole document.
 */
export const parseDocument = (html: string): Document =>
  profiled("parse", () => {
    const doc = parseHTML(html).document as unknown as Document;
    if (doc.documentElement?.localName === "html") return doc;
    return parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document as unknown as Document;
  });

export const foldWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim();

// Chinese, Japanese and Thai do not put spaces between words
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u0e00-\u0e7f]/;
// a word: letters, marks and digits, with inner apostrophes, hyphens, dots, commas and colons ("don't",
// "52-year-old", "U.S", "3,400", "10:30", "example.com"); punctuation, dashes and symbols standing alone are none
// a web address written out is one word, as it was between spaces
const WORD = /https?:\/\/[^\s"'<>()「」【】、。，]+|[\p{L}\p{M}\p{N}]+(?:['’\-‐.,:][\p{L}\p{M}\p{N}]+)*/gu;
let wordBreaker: Intl.Segmenter | undefined;

/**
 * The words of a text, as written (case kept): runs of letters and digits, with inner
 * apostrophes, hyphens, dots, commas and colons, and a written-out web address as one, so that a dash, a bullet, a "|" or a "&" is no word and
 * "52-year-old" is one; stretches of a script written without spaces (Chinese, Japanese, Thai)
 * are split by the runtime's word breaker (Intl.Segmenter, ICU's dictionaries): counted by
 * spaces, a Chinese sentence is one word, and every length rule (an opening of 15 to 80 words,
 * an answer of 20 to 80) would misjudge it. The one word count of every check: the main
 * content's `words`, content-depth, readability, the word shares of raw-html-content and
 * bot-access-parity all count these.
 */
export const wordsIn = (text: string): string[] => profiled("segmentation", () => tokens(text));

/** How many words a text has (`wordsIn`). */
export const countWords = (text: string): number => wordsIn(text).length;

/**
 * The words of a text, in order, each handed to `take` until it returns false: Latin, Cyrillic
 * and the like by the WORD pattern, Chinese, Japanese and Thai by the word segmenter.
 */
const eachToken = (text: string, take: (token: string) => boolean): void => {
  for (const [token] of text.matchAll(WORD)) {
    if (!UNSPACED_SCRIPT.test(token)) {
      if (!take(token)) return;
      continue;
    }
    wordBreaker ??= new Intl.Segmenter(undefined, { granularity: "word" });
    for (const segment of wordBreaker.segment(token)) if (segment.isWordLike && !take(segment.segment)) return;
  }
};

const tokens = (text: string): string[] => {
  const found: string[] = [];
  eachToken(text, (token) => found.push(token) > 0);
  return found;
};

/**
 * Whether a text has a word (`wordsIn`), read up to its first: the extraction asks it of whole
 * articles, where counting every word to compare the count with 0 was most of the cost.
 */
const hasWords = (text: string): boolean =>
  profiled("segmentation", () => {
    let found = false;
    eachToken(text, () => {
      found = true;
      return false;
    });
    return found;
  });

const contentOf = (
  source: MainContent["source"],
  root: Element,
  { heading, pageHeading }: { heading: Element | null; pageHeading: Element | null },
  setAside: MainContent["setAside"],
): MainContent => {
  const keep = ancestorsOf(heading);
  // Readability's extraction has had its boilerplate taken out; a fallback's live subtree still holds it
  const excludes =
    source === "readability"
      ? () => false
      : (element: Element) => !keep.has(element) && boilerplateReason(element, root) !== null;
  const own = foldWhitespace(textUnder(root, excludes));
  const outside = heading && !root.contains(heading) ? readableText(heading) : "";
  const text = outside === "" ? own : foldWhitespace(`${outside} ${own}`);
  return { source, root, heading, pageHeading, excludes, text, words: countWords(text), setAside };
};

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** How alike two titles are: the Dice coefficient of their word sets (1 the same words, 0 none shared). */
const likeness = (a: string, b: string): number => {
  const left = new Set(wordsOf(a));
  const right = new Set(wordsOf(b));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return (2 * shared) / (left.size + right.size);
};

// the page's h1 and the title Readability (or <title>) gives share most of their words
const TITLE_LIKENESS = 0.5;

/** The page's h1s outside navigation, sidebars and widgets (a site's header is allowed: titles stand in one). */
const headingCandidates = (doc: Document): Element[] =>
  [...doc.querySelectorAll("h1")].filter(
    (h1) =>
      !isInert(h1) &&
      !isHiddenByMarkup(h1) &&
      readableText(h1) !== "" &&
      enclosingBoilerplate(h1, { siteChrome: false }) === null,
  );

/**
 * The page's h1 that titles its content: of the h1s outside navigation, sidebars and widgets,
 * the one most like the page's title (Readability's, else `<title>`), when they share at least
 * half their words. A site's name set as an h1 ("V8", "Salon" or a blog's name beside an
 * article's title, a column's "Information and Resources") is not.
 */
const titleHeading = (candidates: readonly Element[], title: string): Element | null => {
  let best: Element | null = null;
  let bestLikeness = TITLE_LIKENESS;
  for (const h1 of candidates) {
    const score = likeness(h1.textContent ?? "", title);
    if (score > bestLikeness || (best === null && score === bestLikeness)) {
      best = h1;
      bestLikeness = score;
    }
  }
  return best;
};

// the article, main or role=main element around a heading: where a page sets its content
const CONTENT_CONTAINER = "article, main, [role=main]";

/** The first sentence-sized stretch of an extraction's text, to find it again in the page. */
const openingOf = (root: Element): string => {
  for (const block of root.querySelectorAll("p, li, blockquote, pre, td")) {
    const text = readableText(block);
    if (text.length >= 20) return text.slice(0, 60);
  }
  return "";
};

/**
 * The h1 of the element that holds the extraction's content, when none is like the title: an
 * h1 inside the page's `<article>`, `<main>` or role=main element that also holds the
 * extraction's first paragraph. A headline rewritten for search in `<title>` ("Live updates:
 * …", a brand and a keyword) shares no word with the article's h1, yet the h1 titles what
 * Readability extracted; a site's name set as an h1 stands in the site's header, outside them.
 */
const contentHeading = (candidates: readonly Element[], root: Element): Element | null => {
  const opening = openingOf(root);
  if (opening === "") return null;
  for (const h1 of candidates) {
    const container = h1.closest(CONTENT_CONTAINER);
    if (container && foldWhitespace(container.textContent ?? "").includes(opening)) return h1;
  }
  return null;
};

// a heading of a dozen words or more that ends like a sentence is a standfirst, not a section (aeo/headings.ts)
const SENTENCE_LIKE = /[.!…。]["'”’»)]*$/u;

/**
 * The section headings (h2-h6) of an element, outside navigation, sidebars and widgets, and
 * neither a widget's title ("Share this story") nor a standfirst set as a heading.
 */
const sectionHeadings = (container: Element): Element[] =>
  [...container.querySelectorAll("h2, h3, h4, h5, h6")].filter((heading) => {
    if (isInert(heading) || isHiddenByMarkup(heading)) return false;
    const text = readableText(heading);
    if (text === "" || WIDGET_TITLE.test(text)) return false;
    if (countWords(text) >= 12 && SENTENCE_LIKE.test(text)) return false;
    return enclosingBoilerplate(heading, { siteChrome: false }) === null;
  });

const PARAGRAPHS = "p, li, blockquote, pre, td, dd";

// how much of a paragraph's opening indexes it: the shortest opening looked for
const INDEXED_CHARS = 20;

/**
 * The extraction's paragraphs in document order, each with its readable text read once (read
 * again for every paragraph of the page, the texts made the heading restoration quadratic in
 * the article's length): `find` answers the first whose text starts with an opening of at
 * least INDEXED_CHARS characters; `changedAround` reads again the paragraphs that hold a node
 * just inserted, whose text it changed.
 */
const extractionParagraphs = (root: Element) => {
  const elements = [...root.querySelectorAll(PARAGRAPHS)];
  const texts = elements.map((element) => readableText(element));
  const position = new Map(elements.map((element, index) => [element, index]));
  const byOpening = new Map<string, number[]>();
  const index = (at: number) => {
    const key = (texts[at] ?? "").slice(0, INDEXED_CHARS);
    const list = byOpening.get(key);
    if (!list) byOpening.set(key, [at]);
    else {
      // kept in document order: a paragraph read again goes back to its place
      list.push(at);
      list.sort((a, b) => a - b);
    }
  };
  const unindex = (at: number) => {
    const key = (texts[at] ?? "").slice(0, INDEXED_CHARS);
    const list = byOpening.get(key) ?? [];
    list.splice(list.indexOf(at), 1);
  };
  for (let at = 0; at < elements.length; at++) index(at);
  return {
    find: (opening: string): Element | undefined => {
      for (const at of byOpening.get(opening.slice(0, INDEXED_CHARS)) ?? [])
        if (texts[at]?.startsWith(opening)) return elements[at];
      return undefined;
    },
    changedAround: (node: Node): void => {
      for (let parent = node.parentElement; parent; parent = parent.parentElement) {
        const at = position.get(parent);
        if (at === undefined) continue;
        unindex(at);
        texts[at] = readableText(parent);
        index(at);
      }
    },
  };
};

/** A heading whose whole text is a link: a teaser's or a video's title, which heads no section of the article. */
const linkOnly = (heading: Element): boolean => {
  const text = readableText(heading);
  return [...heading.querySelectorAll("a")].some((link) => readableText(link) === text);
};
// enough of a paragraph's opening to know it again in the extraction
const OPENING_CHARS = 40;

/**
 * Puts back the section headings Readability dropped from the article it kept: it drops an h2
 * whose class reads as negative ("share", "media", "meta") or whose text resembles the title,
 * and a heading set in a wrapper it scored low goes with the wrapper while the paragraphs
 * stay. The page's headings are those of the `<article>`, `<main>` or role=main element around
 * its h1 (else of its only `<article>`), outside widgets (`sectionHeadings`); one is put back,
 * as a copy with its level, text and id, before the extraction's paragraph that opens its
 * section on the page, when the extraction holds that paragraph (the first of the page's
 * paragraphs after the heading that it holds) and no heading of its text. Headings before the
 * article's first extracted paragraph (a standfirst, a kicker) and headings that are a link
 * alone (a teaser, a video's title) are left out.
 * A heading in the article's `<header>` or like the page's title is the article's title, which
 * Readability drops on purpose. Returns how many were put back.
 */
const restoreSectionHeadings = (root: Element, doc: Document, pageHeading: Element | null, title: string): number => {
  const articles = doc.querySelectorAll("article");
  const container = pageHeading?.closest(CONTENT_CONTAINER) ?? (articles.length === 1 ? (articles[0] ?? null) : null);
  if (!container) return 0;
  // a heading in the article's <header>, or one like the page's title, titles the article: it heads no section
  const wanted = new Set(
    sectionHeadings(container).filter(
      (heading) => heading.closest("header") === null && likeness(readableText(heading), title) < TITLE_LIKENESS,
    ),
  );
  if (wanted.size === 0) return 0;
  const kept = new Set(
    [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((heading) => readableText(heading).toLowerCase()),
  );
  const paragraphs = extractionParagraphs(root);
  const extracted = (element: Element): Element | undefined => {
    const opening = readableText(element).slice(0, OPENING_CHARS);
    return opening.length < 20 ? undefined : paragraphs.find(opening);
  };
  let restored = 0;
  // sections follow the article's opening: a heading before it is a standfirst or a kicker
  let opened = false;
  let pending: Element | null = null;
  for (const element of container.querySelectorAll(`h2, h3, h4, h5, h6, ${PARAGRAPHS}`)) {
    if (/^h[2-6]$/.test(element.localName)) {
      pending =
        opened && wanted.has(element) && !linkOnly(element) && !kept.has(readableText(element).toLowerCase())
          ? element
          : null;
      continue;
    }
    const target = extracted(element);
    if (!target) continue;
    opened = true;
    const heading = pending;
    pending = null;
    if (!heading || !target.parentNode) continue;
    const copy = root.ownerDocument.createElement(heading.localName);
    copy.textContent = readableText(heading);
    const id = heading.getAttribute("id");
    if (id) copy.setAttribute("id", id);
    target.parentNode.insertBefore(copy, target);
    paragraphs.changedAround(copy);
    kept.add(readableText(heading).toLowerCase());
    restored++;
  }
  return restored;
};

/** A heading of the extraction with the same text as the page's h1 (Readability turns inner h1s into h2s). */
const sameHeading = (root: Element, text: string): Element | null => {
  for (const heading of root.querySelectorAll("h1, h2, h3")) {
    if (readableText(heading).toLowerCase() === text.toLowerCase()) return heading;
  }
  return null;
};

/** An h1 in place of a heading of the extraction, with its attributes and children. */
const asH1 = (heading: Element): Element => {
  if (heading.localName === "h1") return heading;
  const h1 = heading.ownerDocument.createElement("h1");
  for (const { name, value } of [...heading.attributes]) h1.setAttribute(name, value);
  while (heading.firstChild) h1.appendChild(heading.firstChild);
  heading.replaceWith(h1);
  return h1;
};

/**
 * The h1 that titles Readability's extraction, which leaves the page's title out or turns it
 * into an h2: the page's h1 most like the title (`titleHeading`), or the page's only h1 when
 * the extraction holds it. A copy opens the extraction when it lacks it; one the extraction
 * holds as an h2 is made an h1 again (the page's other h1s, sections of a long document, stay
 * the h2s Readability made of them).
 */
const titleOfExtraction = (
  root: Element,
  doc: Document,
  title: string,
): { heading: Element | null; pageHeading: Element | null } => {
  const candidates = headingCandidates(doc);
  const h1 = titleHeading(candidates, title) ?? contentHeading(candidates, root);
  const text = h1 ? readableText(h1) : "";
  if (h1 && text !== "") {
    const inside = sameHeading(root, text);
    if (inside) return { heading: asH1(inside), pageHeading: h1 };
    const copy = root.ownerDocument.createElement("h1");
    copy.textContent = text;
    const id = h1.getAttribute("id");
    if (id) copy.setAttribute("id", id);
    root.insertBefore(copy, root.firstChild);
    return { heading: copy, pageHeading: h1 };
  }
  const [only] = candidates;
  const inside = candidates.length === 1 && only ? sameHeading(root, readableText(only)) : null;
  return inside ? { heading: asH1(inside), pageHeading: only ?? null } : { heading: null, pageHeading: null };
};

const lazy = <T>(compute: () => T): (() => T) => {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
};

// set on the elements of Readability's input that are not content: Readability merges
// wrappers into their children and copies attributes over, so a class alone does not survive
const SET_ASIDE = "data-scan-set-aside";

/** Marks the elements of a document that are not content (lib/boilerplate.ts) with the reason, "name|" before one read from a class or id. */
const markBoilerplate = (doc: Document): void => {
  for (const element of doc.querySelectorAll("*")) {
    const found = boilerplateOf(element);
    if (found) element.setAttribute(SET_ASIDE, `${found.byName ? "name|" : ""}${found.reason}`);
  }
};

/**
 * Takes out of Readability's extraction the blocks marked as not content. A block marked for a
 * class or id word that holds half the extraction's words or more stays: it is the article
 * under a layout class, not a widget. (A nav or aside goes whatever it holds: when Readability
 * took one for the article, the fallbacks read the page instead.) Returns what was taken out.
 */
const pruneBoilerplate = (root: Element): MainContent["setAside"] => {
  // the words before anything is taken out, counted only when a block is marked for a name:
  // most extractions have none
  const before = root.textContent ?? "";
  const total = lazy(() => countWords(before));
  const setAside: SetAside[] = [];
  for (const element of [...root.querySelectorAll(`[${SET_ASIDE}]`)]) {
    const mark = element.getAttribute(SET_ASIDE) ?? "";
    element.removeAttribute(SET_ASIDE);
    const byName = mark.startsWith("name|");
    const reason = byName ? mark.slice("name|".length) : mark;
    if (!root.contains(element)) continue;
    const text = readableText(element);
    if (byName && countWords(text) * 2 >= total()) continue;
    const headings = [...element.querySelectorAll("h1, h2, h3")]
      .map((heading) => readableText(heading))
      .filter((heading) => heading !== "");
    element.remove();
    setAside.push({ reason, text, headings });
  }
  return setAside;
};

const documentTitleOf = (doc: Document): string => foldWhitespace(doc.querySelector("title")?.textContent ?? "");

/**
 * Readability scores every element, which takes seconds on a page of 100,000 elements and
 * blocks the worker meanwhile. Real articles stay far below this (a long Wikipedia article has
 * about 20,000); above it, the main content comes from the fallbacks.
 */
export const READABILITY_MAX_ELEMENTS = 50_000;

/**
 * Whether an HTML text has more start tags ("<" and a letter: the element count, near enough,
 * without a DOM walk) than `limit`, counted up to the one past it, without a list of them all.
 */
const moreStartTagsThan = (html: string, limit: number): boolean => {
  let count = 0;
  for (let at = html.indexOf("<"); at !== -1; at = html.indexOf("<", at + 1)) {
    const next = html.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a && ++count > limit) return true;
  }
  return false;
};

// Readability's own maxElemsToParse counts with getElementsByTagName("*"), which linkedom answers with nothing
const tooLargeForReadability = (html: string): boolean => moreStartTagsThan(html, READABILITY_MAX_ELEMENTS);

const readable = (html: string, doc: Document) => {
  if (tooLargeForReadability(html)) return null;
  // Readability rewrites the DOM it is given: it gets a copy of the page's, a fraction of a parse's cost
  const copy = doc.cloneNode(true) as Document;
  markBoilerplate(copy);
  // without JSON-LD: Readability leaves a byline it finds in JSON-LD in the content, so adding
  // structured data would change what the content checks read
  return new Readability(copy, { disableJSONLD: true }).parse();
};

/**
 * Readability over a page's DOM (`doc`, the parse of `html`, only read here), falling back to
 * <main>, then <article>, then <body> (also when the page has more than
 * READABILITY_MAX_ELEMENTS elements); with the page's h1 (`titleHeading`), and without the
 * widgets Readability lets through (`pruneBoilerplate`).
 */
export const extractMainContent = (html: string, doc: Document = parseDocument(html)): MainContent =>
  profiled("main-content", () => extractFrom(html, doc));

const extractFrom = (html: string, doc: Document): MainContent => {
  const article = readable(html, doc);
  if (article?.content && hasWords(article.textContent ?? "")) {
    const root = parseDocument(`<!doctype html><html><body>${article.content}</body></html>`).body;
    const setAside = pruneBoilerplate(root);
    if (hasWords(root.textContent ?? "")) {
      const title = article.title || documentTitleOf(doc);
      const headings = titleOfExtraction(root, doc, title);
      restoreSectionHeadings(root, doc, headings.pageHeading, title);
      return contentOf("readability", root, headings, setAside);
    }
  }
  const heading = titleHeading(headingCandidates(doc), documentTitleOf(doc));
  const headings = { heading, pageHeading: heading };
  const main = doc.querySelector("main");
  if (main) return contentOf("main", main, headings, []);
  const articleEl = doc.querySelector("article");
  if (articleEl) return contentOf("article", articleEl, headings, []);
  return contentOf("body", doc.body ?? doc.documentElement, headings, []);
};

/**
 * The main content's text of a page's HTML as served (`Page.servedText`), on its own: a scan
 * reads it while the page renders, off the thread that drives the browser.
 */
export const servedMainText = (rawHtml: string, rawDoc?: Document): string => extractMainContent(rawHtml, rawDoc).text;

/**
 * Whether the served HTML's main content is the rendered page's, known without a second
 * extraction: the extraction reads only the document element's tree (what lies beside it, a
 * doctype or the white space before it, it never reads) and, for its size limit, the HTML's
 * start tags; two documents whose document elements are the same tree, on the same side of the
 * limit, have the same main content. So it is when the page's scripts changed nothing and the
 * browser's parse of the page is linkedom's.
 */
const sameMainContent = (snapshot: Snapshot, doc: Document, rawDoc: Document): boolean =>
  tooLargeForReadability(snapshot.rawHtml) === tooLargeForReadability(snapshot.renderedHtml) &&
  sameTree(rawDoc.documentElement, doc.documentElement);

/** What the caller already read of the snapshot, to be taken as is. */
export type PageReadings = { servedText?: string | undefined };

export const preparePage = (snapshot: Snapshot, scannedAt: Date, readings: PageReadings = {}): Page => {
  // one DOM per document, read by every check: the rendered page's, and the served HTML's when it differs
  const doc = parseDocument(snapshot.renderedHtml);
  const sameHtml = snapshot.rawHtml === snapshot.renderedHtml;
  const rawDoc = sameHtml ? () => doc : lazy(() => parseDocument(snapshot.rawHtml));
  const main = lazy(() => extractMainContent(snapshot.renderedHtml, doc));
  const known = readings.servedText;
  const servedText = sameHtml
    ? () => main().text
    : known !== undefined
      ? () => known
      : lazy(() =>
          sameMainContent(snapshot, doc, rawDoc()) ? main().text : servedMainText(snapshot.rawHtml, rawDoc()),
        );
  return {
    snapshot,
    scannedAt,
    finalUrl: new URL(snapshot.finalUrl),
    doc,
    get rawDoc() {
      return rawDoc();
    },
    get main() {
      return main();
    },
    get servedText() {
      return servedText();
    },
  };
};
