import type { DefaultTreeAdapterMap } from "parse5";
import { parse, serialize } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** How quick scans treat scripts: judge the served HTML unless scripts may change it (auto). */
export type QuickRender = "auto" | "always" | "never";

export type ServedHtmlVerdict = {
  /** true when the page must be rendered in Chromium to be judged as a browser sees it */
  render: boolean;
  /** why, in words for the scan log */
  reason: string;
  /** the served HTML as a browser's parser builds it (no script run), serialised */
  html: string;
};

/** The MIME types under which a <script> is executed; any other type is a data block. */
const SCRIPT_TYPES = new Set([
  "",
  "module",
  "text/javascript",
  "application/javascript",
  "application/ecmascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
]);

/** Where client-rendering frameworks mount their app: empty in the served HTML of a shell. */
const MOUNT_IDS = new Set(["root", "app", "__next", "__nuxt", "___gatsby", "svelte", "main-app", "react-root"]);
const MOUNT_TAGS = new Set(["app-root"]);

/** Fewer served words than this, with scripts present, reads as a page that builds itself. */
const SHELL_MAX_WORDS = 50;

const NOSCRIPT_NEEDS_JS =
  /(enable|turn on|activate)\s+javascript|javascript\s+(is\s+)?(required|disabled|needed)|requires?\s+javascript/i;
const DOCUMENT_WRITE = /\bdocument\s*\.\s*write(ln)?\s*\(/;
const INVISIBLE = new Set(["style", "template"]);

const attr = (element: Element, name: string): string | undefined => element.attrs.find((a) => a.name === name)?.value;

const isElement = (node: Node): node is Element => "tagName" in node;

const textOf = (node: Node): string => {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value;
  if (!("childNodes" in node)) return "";
  return node.childNodes.map(textOf).join(" ");
};

type Survey = { scripts: number; writes: boolean; words: number; emptyMount: boolean; noscriptNeedsJs: boolean };

const survey = (root: Node, acc: Survey): Survey => {
  if (isElement(root)) {
    const tag = root.tagName;
    if (tag === "script") {
      const type = (attr(root, "type") ?? "").trim().toLowerCase();
      const executable = SCRIPT_TYPES.has(type) && attr(root, "nomodule") === undefined;
      if (executable) {
        acc.scripts += 1;
        if (attr(root, "src") === undefined && DOCUMENT_WRITE.test(textOf(root))) acc.writes = true;
      }
      return acc;
    }
    if (tag === "noscript") {
      if (NOSCRIPT_NEEDS_JS.test(textOf(root))) acc.noscriptNeedsJs = true;
      return acc;
    }
    if ((MOUNT_IDS.has(attr(root, "id") ?? "") || MOUNT_TAGS.has(tag)) && !root.childNodes.some(hasContent)) {
      acc.emptyMount = true;
    }
    if (tag === "head") return surveyHead(root, acc);
    if (INVISIBLE.has(tag)) return acc;
  }
  if (root.nodeName === "#text") {
    const text = (root as DefaultTreeAdapterMap["textNode"]).value.trim();
    if (text !== "") acc.words += text.split(/\s+/).length;
    return acc;
  }
  if ("childNodes" in root) for (const child of root.childNodes) survey(child, acc);
  return acc;
};

/** The head holds no content words, but its scripts and document.write calls count. */
const surveyHead = (head: Element, acc: Survey): Survey => {
  for (const child of head.childNodes) {
    const words = acc.words;
    survey(child, acc);
    acc.words = words;
  }
  return acc;
};

const hasContent = (node: Node): boolean =>
  isElement(node) ? node.tagName !== "script" : node.nodeName === "#text" && textOf(node).trim() !== "";

/**
 * Decides whether a quick scan must render the page, and gives the served HTML as a browser's
 * parser builds it (parse5 implements the same HTML tree construction as Chromium, so metadata
 * after stray body content lands in <body> here as it does there).
 *
 * Search engines index the served HTML first and render later, and AI crawlers do not run
 * scripts at all, so the served HTML is what most of them judge. Scripts change what the quick
 * checks read in two common ways, and those pages are rendered:
 * - the page builds itself in the browser: an empty app mount point, a <noscript> asking for
 *   JavaScript, or fewer than 50 served words next to scripts;
 * - an inline script writes into the document while it is parsed (document.write), which can
 *   move the head's metadata into the body as the browser builds the tree.
 * A page without executable scripts is never rendered: nothing could change it.
 */
export const judgeServedHtml = (rawHtml: string): ServedHtmlVerdict => {
  const document = parse(rawHtml);
  const html = serialize(document);
  const found = survey(document, { scripts: 0, writes: false, words: 0, emptyMount: false, noscriptNeedsJs: false });
  const verdict = (render: boolean, reason: string): ServedHtmlVerdict => ({ render, reason, html });
  if (found.scripts === 0) return verdict(false, "no executable script");
  if (found.writes) return verdict(true, "an inline script calls document.write");
  if (found.emptyMount) return verdict(true, "an empty app mount point (client-rendered)");
  if (found.noscriptNeedsJs) return verdict(true, "a <noscript> asks for JavaScript");
  if (found.words < SHELL_MAX_WORDS) return verdict(true, `only ${found.words} served words next to scripts`);
  return verdict(false, "server-rendered content");
};
