/** Element tests the checks share, DOM-only (page.ts builds the main content with them). */

/** The nearest ancestor-or-self matching the test (a parent walk; closest() with a selector is slow in linkedom). */
export const ancestor = (element: Element, test: (node: Element) => boolean): Element | null => {
  for (let node: Element | null = element; node; node = node.parentElement) {
    if (test(node)) return node;
  }
  return null;
};

const isInertContainer = (node: Element): boolean => node.localName === "noscript" || node.localName === "template";

/**
 * Whether an element exists for a browser running scripts: content of `<noscript>` is inert
 * text there (and in Lighthouse's DOM), though a static parse makes elements of it.
 */
export const isInert = (element: Element): boolean => ancestor(element, isInertContainer) !== null;

// Inline styles that take an element out of rendering; stylesheets cannot be evaluated here.
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

export const isHiddenNode = (node: Element): boolean =>
  node.hasAttribute("hidden") || HIDDEN_STYLE.test(node.getAttribute("style") ?? "");

/** Hidden by markup we can see without a style engine: `hidden`, an inline display:none or visibility:hidden. */
export const isHiddenByMarkup = (element: Element): boolean => ancestor(element, isHiddenNode) !== null;

/** Elements that set their text on a line of its own, as a browser lays them out (and `innerText` reads them). */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  ...["address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "dialog", "div", "dl", "dt"],
  ...["fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup"],
  ...["hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul"],
]);

// elements whose text no reader sees: code, styles, inert markup
const SILENT_TEXT = new Set(["script", "style", "noscript", "template"]);

// between elements set side by side: a space only where it would otherwise join two words
// (U+FFFF is a noncharacter: no page's text holds one)
const SOFT_BREAK = "\uffff";
const SOFT_BREAKS = /\uffff+/g;

/**
 * What a reader sees before this node of a parent's children: a block element begins a line
 * (a space), and an element set right after another element with no text between is a
 * separate piece of text (a soft break): "Lucas Nolan" and "22 Dec 2016" of a byline's spans,
 * items of a line of links, which a page's stylesheet spaces apart where its markup does not.
 * Text that runs on into or out of an element ("<b>W</b>ord") stays one word.
 */
export const breakBefore = (node: Node): string => {
  if (node.nodeType !== 1) return "";
  if (BLOCK_ELEMENTS.has((node as Element).localName)) return " ";
  let previous = node.previousSibling;
  while (previous && previous.nodeType !== 1 && previous.nodeType !== 3) previous = previous.previousSibling;
  return previous?.nodeType === 1 ? SOFT_BREAK : "";
};

const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/** The character (a whole code point) that ends before `at`, or "". */
const characterBefore = (text: string, at: number): string => {
  const low = text.charCodeAt(at - 1);
  const high = text.charCodeAt(at - 2);
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(Math.max(0, at - (pair ? 2 : 1)), at);
};

/** The character (a whole code point) that starts at `at`, or "". */
const characterAt = (text: string, at: number): string => {
  const code = text.codePointAt(at);
  return code === undefined ? "" : String.fromCodePoint(code);
};

/**
 * Text with its soft breaks settled: a space between two words ("Nolan|22"), nothing beside
 * punctuation ("History|[|edit|]"). Each run of breaks is looked at once (a pattern that looked
 * behind at every character of a long text cost more than the walk that made it).
 */
export const settleBreaks = (text: string): string => {
  if (!text.includes(SOFT_BREAK)) return text;
  return text.replace(SOFT_BREAKS, (breaks: string, at: number) =>
    WORD_CHARACTER.test(characterBefore(text, at)) && WORD_CHARACTER.test(characterAt(text, at + breaks.length))
      ? " "
      : "",
  );
};

/**
 * The text under a node as a reader sees it: without scripts, styles and the subtrees `skip`
 * refuses, with a space where a block begins or ends and between the words of elements set
 * side by side, where textContent glues them ("by Lucas Nolan22 Dec 2016651"). Whitespace is
 * not folded. Iterative: real pages nest deeper than a recursive walk should go.
 */
export const textUnder = (root: Node, skip: (element: Element) => boolean = () => false): string => {
  const parts: string[] = [];
  // a string on the stack is a break to write when it comes off
  const stack: Array<Node | string> = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node | string;
    if (typeof node === "string") {
      parts.push(node);
      continue;
    }
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? "");
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    if (node !== root && node.nodeType === 1) {
      const element = node as Element;
      if (SILENT_TEXT.has(element.localName) || skip(element)) continue;
      if (BLOCK_ELEMENTS.has(element.localName)) stack.push(" ");
    }
    // an element's children from the last, by sibling links: childNodes builds a list per
    // element (a document's too, whose doctype linkedom links to no sibling, is read by it)
    if (node.nodeType === 1) {
      for (let child = node.lastChild; child; child = child.previousSibling) {
        stack.push(child);
        const gap = breakBefore(child);
        if (gap !== "") stack.push(gap);
      }
      continue;
    }
    const children = node.childNodes;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (!child) continue;
      stack.push(child);
      const gap = breakBefore(child);
      if (gap !== "") stack.push(gap);
    }
  }
  return settleBreaks(parts.join(""));
};

/**
 * The visible text of an element as a reader sees it, whitespace folded: `textUnder` without
 * markup-hidden elements. Evidence quotes element text with this, never with textContent.
 */
export const readableText = (element: Node): string => textUnder(element, isHiddenNode).replace(/\s+/g, " ").trim();
