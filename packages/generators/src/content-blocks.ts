import { foldWhitespace, type Page, perPage } from "@scan/checks";

/** The main content read as a writer sees it: headings, paragraphs and lists, in document order. */
export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: string[] };

const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "button",
  "select",
  "textarea",
  "nav",
  "footer",
]);
const HEADING = /^h([1-6])$/;
const PARAGRAPH = new Set(["p", "blockquote", "pre", "dt", "dd", "figcaption"]);
// a page with more blocks than this is a listing, not prose; the rest adds nothing to a draft
const MAX_BLOCKS = 2000;

const text = (element: Element): string => foldWhitespace(element.textContent ?? "");

/**
 * The blocks of the page's main content (Readability's extraction, else `<main>`, `<article>`
 * or `<body>`), read iteratively: headings (Readability turns an `<h1>` into an `<h2>`),
 * paragraphs, quotes, definition terms, and lists as their items. Empty blocks are dropped.
 */
export const contentBlocks = perPage((page: Page): Block[] => {
  const blocks: Block[] = [];
  const stack: Element[] = [page.main.root];
  while (stack.length > 0 && blocks.length < MAX_BLOCKS) {
    const element = stack.pop();
    if (!element) break;
    const tag = element.localName;
    if (SKIP.has(tag)) continue;
    const heading = HEADING.exec(tag);
    if (heading) {
      const value = text(element);
      if (value !== "") blocks.push({ kind: "heading", level: Number(heading[1]), text: value });
      continue;
    }
    if (PARAGRAPH.has(tag)) {
      const value = text(element);
      if (value !== "") blocks.push({ kind: "paragraph", text: value });
      continue;
    }
    if (tag === "ul" || tag === "ol") {
      const items = [...element.children]
        .filter((child) => child.localName === "li")
        .map(text)
        .filter((item) => item !== "");
      if (items.length > 0) blocks.push({ kind: "list", items });
      continue;
    }
    const children = element.children;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  return blocks;
});

/** The page text a model is grounded on: title, description and the main content's blocks, cut at `maxChars`. */
export const pageText = (page: Page, head: readonly string[], maxChars: number): string => {
  const lines: string[] = head.filter((line) => line !== "");
  for (const block of contentBlocks(page)) {
    if (block.kind === "heading") lines.push(`${"#".repeat(Math.min(block.level, 6))} ${block.text}`);
    else if (block.kind === "paragraph") lines.push(block.text);
    else lines.push(...block.items.map((item) => `- ${item}`));
  }
  let out = "";
  for (const line of lines) {
    const next = out === "" ? line : `${out}\n${line}`;
    if (next.length > maxChars) {
      // the first line alone may exceed the budget: cut it rather than send nothing
      if (out === "") out = line.slice(0, maxChars);
      break;
    }
    out = next;
  }
  return out;
};
