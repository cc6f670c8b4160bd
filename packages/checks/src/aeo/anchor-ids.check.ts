import { defineCheck } from "../check";
import { isInert, readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { judgesContent } from "../lib/placeholder";
import type { Page } from "../page";
import { type Heading, headingList, passedOverNote, subHeadings } from "./headings";

const hasId = (element: Element): boolean => (element.getAttribute("id") ?? "").trim() !== "";

// a walk of the heading's few descendants: a selector query in linkedom costs far more per heading
const hasTargetInside = (element: Element): boolean => {
  for (const child of element.children) {
    if (hasId(child) || (child.localName === "a" && child.hasAttribute("name")) || hasTargetInside(child)) return true;
  }
  return false;
};

/**
 * A fragment target for the section: an id on the h2/h3, on an element or `<a name>` inside it
 * (the "¶" permalink pattern), or on the `<section>`/`<div>` that the heading opens.
 */
const isTarget = (element: Element): boolean => {
  if (hasId(element)) return true;
  if (hasTargetInside(element)) return true;
  const parent = element.parentElement;
  return (
    parent !== null &&
    parent.firstElementChild === element &&
    hasId(parent) &&
    parent.localName !== "body" &&
    // the wrapper Readability puts around its extraction is no section of the page
    !(parent.getAttribute("id") ?? "").startsWith("readability-page-")
  );
};

/** The rendered page's headings by their text, in document order. */
const pageHeadingsByText = perPage((page: Page): Map<string, Element[]> => {
  const byText = new Map<string, Element[]>();
  for (const element of page.doc.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    if (isInert(element)) continue;
    const text = readableText(element);
    byText.set(text, [...(byText.get(text) ?? []), element]);
  }
  return byText;
});

/**
 * Whether each heading can be linked to, judged on the page's own element: Readability's
 * extraction is a copy whose wrappers it rewrites (dropbox-blog's `<div id="introduction">`
 * around its h2 becomes an empty `<p id>` before it), and a reader follows the page's ids, not
 * the copy's. The page's element is the one with the heading's text, the n-th for the n-th
 * heading of that text; a heading without one (a fallback's, already the page's) is judged as it is.
 */
const linkability = (page: Page, headings: readonly Heading[]): boolean[] => {
  const byText = pageHeadingsByText(page);
  const used = new Map<string, number>();
  return headings.map(({ element, text }) => {
    if (element.ownerDocument === page.doc) return isTarget(element);
    const index = used.get(text) ?? 0;
    used.set(text, index + 1);
    const own = byText.get(text)?.[index];
    return isTarget(element) || (own !== undefined && isTarget(own));
  });
};

/**
 * "The hypothesis" → "the-hypothesis", "Café" → "cafe": an id to suggest for a heading. Latin
 * accents are dropped; the text is then composed again, so that a kana's voiced mark stays on
 * it ("デザイン", not "テ-サ-イン") and marks of other scripts are kept as part of their word.
 */
const slug = (text: string): string =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "section";

/**
 * The markup to propose for these headings: an id from each one's text that no element of the
 * page has and no other proposed id takes ("rates", then "rates-2"), as an id must be unique.
 */
const uniqueIds = (page: Page, headings: ReadonlyArray<{ level: number; text: string }>): string[] => {
  const taken = new Set<string>();
  for (const element of page.doc.querySelectorAll("[id]")) taken.add(element.getAttribute("id") ?? "");
  return headings.map(({ level, text }) => {
    const base = slug(text);
    let id = base;
    for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
    taken.add(id);
    return `<h${level} id="${id}">`;
  });
};

/**
 * Reads the h2/h3 headings of the main content (headings.ts `contentHeadings`: never those of
 * navigation, sidebars, teasers or widgets), and whether most of them can be reached by a
 * fragment (`#pricing`), so that an answer can cite the exact passage (Google's "scroll to
 * text" links and AI citations do). "Most" is more than half. Skipped without h2/h3 headings
 * in the main content: there is no section to link to, and subheadings reports that. The
 * targets are read on the page's own headings (`linkability`).
 */
export const anchorIds = judgesContent(
  defineCheck({
    id: "anchor-ids",
    category: "aeo",
    severity: "info",
    maxScore: 1,
    quick: false,
    title: "Sections can be linked to",
    run: (page) => {
      const headings = subHeadings(page);
      if (headings.length === 0) {
        return {
          status: "skip",
          description: `The main content has no h2/h3 heading, so no section to link to.${passedOverNote(page)}`,
          evidence: [],
        };
      }
      const linkableAt = linkability(page, headings);
      const linkable = headings.filter((_, index) => linkableAt[index]);
      const bare = headings.filter((_, index) => !linkableAt[index]);
      const evidence = bare.map((heading) => heading.text);
      const description = `${linkable.length} of ${headings.length} h2/h3 heading${headings.length === 1 ? " of the main content has" : "s of the main content have"} an id to link to${bare.length > 0 ? `; without one: ${headingList(bare)}` : ""}.`;
      if (linkable.length * 2 > headings.length) return { status: "pass", description, evidence };
      const proposed = uniqueIds(page, bare.slice(0, 2));
      return {
        status: linkable.length > 0 ? "warn" : "fail",
        description,
        fix: `Give ${headingList(bare, 2)} ${bare.length === 1 ? "an id" : "an id each"} (${proposed.join(", ")}${bare.length > 2 ? ", and so on, each id used once on the page" : ""}), so that answers and readers can link straight to the section.`,
        evidence,
      };
    },
  }),
);
