import { perPage } from "../lib/memo";
import type { Page } from "../page";

/**
 * The elements of the main content bucketed by tag name, from one traversal (the idea of
 * seo/dom.ts's index, over `page.main.root` instead of the rendered DOM): several AEO checks
 * read its paragraphs, lists, tables and headings.
 */
const mainIndex = perPage((page: Page): ReadonlyMap<string, readonly Element[]> => {
  const byTag = new Map<string, Element[]>();
  for (const element of page.main.root.querySelectorAll("*")) {
    const list = byTag.get(element.localName);
    if (list) list.push(element);
    else byTag.set(element.localName, [element]);
  }
  return byTag;
});

/** The main content's elements of one tag name (lower case), in document order. */
export const mainElementsNamed = (page: Page, tag: string): readonly Element[] => mainIndex(page).get(tag) ?? [];

/** The nearest ancestor (not the element itself) inside the main content with one of these tag names. */
export const mainAncestorNamed = (page: Page, element: Element, tags: readonly string[]): Element | null => {
  for (let node = element.parentElement; node && node !== page.main.root; node = node.parentElement) {
    if (tags.includes(node.localName)) return node;
  }
  return null;
};

/**
 * Whether an element of the main content's DOM is content: not inside a block the main content
 * excludes (navigation, a sidebar, a widget of a fallback's `<body>`; page.ts `excludes`).
 */
export const isContent = (page: Page, element: Element): boolean => {
  const { root, excludes } = page.main;
  for (let node: Element | null = element; node && node !== root; node = node.parentElement) {
    if (excludes(node)) return false;
  }
  return true;
};
