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
