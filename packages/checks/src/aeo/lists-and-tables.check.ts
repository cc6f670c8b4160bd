import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { judgesContent } from "../lib/placeholder";
import { isContent, mainElementsNamed } from "./main-dom";

const childCount = (element: Element, tag: string): number => {
  let count = 0;
  for (const child of element.children) if (child.localName === tag) count++;
  return count;
};

/**
 * Reads the lists and tables of the main content (page.ts: Readability's extraction, or its
 * fallback, never navigation, sidebars or widgets: lib/boilerplate.ts): a list of 3 or more
 * items (`<ul>`, `<ol>` with 3 `<li>`, or `<dl>` with 3 `<dt>`) or a table with header cells
 * (`<th>`; a table with role="presentation" is layout) passes: steps, options and comparisons
 * that engines lift whole. Menus and link lists of a fallback's `<body>` do not count.
 */
export const listsAndTables = judgesContent(
  defineCheck({
    id: "lists-and-tables",
    category: "aeo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content uses lists or tables",
    run: (page) => {
      const inContent = (element: Element) => isContent(page, element);
      const lists =
        [...mainElementsNamed(page, "ul"), ...mainElementsNamed(page, "ol")].filter(
          (list) => childCount(list, "li") >= 3 && inContent(list),
        ).length +
        mainElementsNamed(page, "dl").filter((list) => childCount(list, "dt") >= 3 && inContent(list)).length;
      const tables = mainElementsNamed(page, "table").filter(
        (table) =>
          !["presentation", "none"].includes(table.getAttribute("role") ?? "") &&
          table.querySelector("th") !== null &&
          inContent(table),
      ).length;
      if (lists > 0 || tables > 0) {
        const parts = [
          lists > 0 ? `${lists} list${lists === 1 ? "" : "s"} of 3 or more items` : null,
          tables > 0 ? `${tables} table${tables === 1 ? "" : "s"} with header cells` : null,
        ].filter((part) => part !== null);
        return { status: "pass", description: `The main content has ${parts.join(" and ")}.`, evidence: parts };
      }
      const words = page.main.words;
      const heading = page.main.heading ? readableText(page.main.heading) : "";
      return {
        status: "fail",
        description: `The main content's ${words} words${heading ? ` under "${heading.length > 60 ? `${heading.slice(0, 59)}…` : heading}"` : ""} hold no list of 3 or more items and no table with header cells.`,
        fix: `Where the ${words} words give steps, options or comparisons, put them in <ol>/<ul> lists or a <table> with <th> headers.`,
        evidence: [String(words), heading],
      };
    },
  }),
);
