import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { ancestor, elementsNamed, isInert, renderedText } from "./dom";
import { resolveHref } from "./head";

/** An `<a>` of the rendered DOM with what Lighthouse's AnchorElements artifact records of it. */
export type Anchor = {
  element: Element;
  /** the href attribute as written, or "" without one */
  rawHref: string;
  hasHref: boolean;
  /** the href resolved against the document base, when it resolves */
  href: URL | null;
  /** approximately innerText */
  text: string;
  /** the nearest lang attribute, "" when none */
  lang: string;
};

/** Every `<a>` (HTML and SVG) a script-running browser would have; `<noscript>` content is not. */
export const anchors = perPage((page: Page): Anchor[] =>
  elementsNamed(page, "a")
    .filter((element) => !isInert(element))
    .map((element) => {
      const rawHref = element.getAttribute("href") ?? "";
      return {
        element,
        rawHref,
        hasHref: element.hasAttribute("href"),
        href: element.hasAttribute("href") ? resolveHref(page, rawHref.trim()) : null,
        text: renderedText(element),
        lang: (ancestor(element, (node) => node.hasAttribute("lang"))?.getAttribute("lang") ?? "").trim().toLowerCase(),
      };
    }),
);
