import { isHiddenNode } from "../lib/element";
import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { foldWhitespace } from "../page";

/**
 * Every element of the rendered DOM in document order, bucketed by tag name, from one
 * traversal. linkedom runs each querySelectorAll over the whole tree, so checks that would
 * each query several tags read this index instead.
 */
type ElementIndex = { all: readonly Element[]; byTag: ReadonlyMap<string, readonly Element[]> };

export const elementIndex = perPage((page: Page): ElementIndex => {
  const all = [...page.doc.querySelectorAll("*")];
  const byTag = new Map<string, Element[]>();
  for (const element of all) {
    const list = byTag.get(element.localName);
    if (list) list.push(element);
    else byTag.set(element.localName, [element]);
  }
  return { all, byTag };
});

/** The elements of one tag name (lower case), in document order. */
export const elementsNamed = (page: Page, tag: string): readonly Element[] => elementIndex(page).byTag.get(tag) ?? [];

/** The elements of any of these tag names, in document order. */
export const elementsNamedAny = (page: Page, tags: readonly string[]): Element[] => {
  const wanted = new Set(tags);
  return elementIndex(page).all.filter((element) => wanted.has(element.localName));
};

export { ancestor, isHiddenByMarkup, isInert } from "../lib/element";

const SKIPPED_TEXT = new Set(["script", "style", "noscript", "template"]);

/**
 * An approximation of `innerText` (what Lighthouse reads for link text): the text of rendered
 * descendants, without scripts, styles and markup-hidden elements, whitespace folded.
 */
export const renderedText = (element: Element): string => {
  // most links hold plain text: no descendant element can hide part of it
  if (element.firstElementChild === null) return foldWhitespace(element.textContent ?? "");
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) {
        parts.push(child.nodeValue ?? "");
      } else if (child.nodeType === 1) {
        const el = child as Element;
        if (SKIPPED_TEXT.has(el.localName) || isHiddenNode(el)) continue;
        walk(el);
      }
    }
  };
  walk(element);
  return foldWhitespace(parts.join(""));
};
