import { Readability } from "@mozilla/readability";
import type { Snapshot } from "@scan/contract";
import { parseHTML } from "linkedom";

/** The main content of the page and where it came from (docs/spec/checks.md "What a snapshot holds"). */
export type MainContent = {
  source: "readability" | "main" | "article" | "body";
  /** a DOM of the main content alone */
  root: Element;
  /** its visible text, whitespace folded */
  text: string;
  words: number;
};

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
  /** the DOM of the HTML as served, before scripts */
  readonly rawDoc: Document;
  readonly main: MainContent;
};

/**
 * The DOM of an HTML text. linkedom, unlike a browser, makes no <html> or <body> for a
 * fragment (an empty response, bare text, a lone script); such input is wrapped the way a
 * browser's parser would place it, so every check sees a whole document.
 */
export const parseDocument = (html: string): Document => {
  const doc = parseHTML(html).document as unknown as Document;
  if (doc.documentElement?.localName === "html") return doc;
  return parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document as unknown as Document;
};

export const foldWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim();

export const countWords = (text: string): number => {
  const folded = foldWhitespace(text);
  return folded === "" ? 0 : folded.split(" ").length;
};

const contentOf = (source: MainContent["source"], root: Element): MainContent => {
  const text = foldWhitespace(root.textContent ?? "");
  return { source, root, text, words: countWords(text) };
};

/**
 * Readability scores every element, which takes seconds on a page of 100,000 elements and
 * blocks the worker meanwhile. Real articles stay far below this (a long Wikipedia article has
 * about 20,000); above it, the main content comes from the fallbacks.
 */
export const READABILITY_MAX_ELEMENTS = 50_000;

/** Start tags in an HTML text: the element count, near enough, without a DOM walk. */
const countStartTags = (html: string): number => html.match(/<[a-zA-Z]/g)?.length ?? 0;

const readable = (html: string) => {
  // Readability's own maxElemsToParse counts with getElementsByTagName("*"), which linkedom answers with nothing
  if (countStartTags(html) > READABILITY_MAX_ELEMENTS) return null;
  // Readability rewrites the DOM it is given, so it gets a parse of its own
  return new Readability(parseDocument(html)).parse();
};

/**
 * Readability over the rendered DOM, falling back to <main>, then <article>, then <body>
 * (also when the page has more than READABILITY_MAX_ELEMENTS elements).
 */
export const extractMainContent = (renderedHtml: string, parsed?: Document): MainContent => {
  const article = readable(renderedHtml);
  if (article?.content && countWords(article.textContent ?? "") > 0) {
    const root = parseDocument(`<!doctype html><html><body>${article.content}</body></html>`).body;
    return contentOf("readability", root);
  }
  // the fallbacks only read: the page's own parse serves when the caller has one
  const doc = parsed ?? parseDocument(renderedHtml);
  const main = doc.querySelector("main");
  if (main) return contentOf("main", main);
  const articleEl = doc.querySelector("article");
  if (articleEl) return contentOf("article", articleEl);
  return contentOf("body", doc.body ?? doc.documentElement);
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

export const preparePage = (snapshot: Snapshot, scannedAt: Date): Page => {
  const doc = parseDocument(snapshot.renderedHtml);
  const rawDoc = lazy(() => parseDocument(snapshot.rawHtml));
  const main = lazy(() => extractMainContent(snapshot.renderedHtml, doc));
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
  };
};
