import { defineCheck } from "../check";
import { type Heading, subHeadings } from "./headings";

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
const isLinkable = ({ element }: Heading): boolean => {
  if (hasId(element)) return true;
  if (hasTargetInside(element)) return true;
  const parent = element.parentElement;
  return parent !== null && parent.firstElementChild === element && hasId(parent) && parent.localName !== "body";
};

/**
 * Most h2/h3 headings addressable by a fragment (`#pricing`), so that an answer can cite the
 * exact passage (Google's "scroll to text" links and AI citations do). "Most" is more than half.
 * The same h2/h3 as qa-content (the whole rendered page). Skipped without h2/h3 headings:
 * there is no section to link to, and the subheadings check already reports that.
 */
export const anchorIds = defineCheck({
  id: "anchor-ids",
  category: "aeo",
  severity: "info",
  maxScore: 1,
  quick: false,
  title: "Sections can be linked to",
  run: (page) => {
    const headings = subHeadings(page);
    if (headings.length === 0) return { status: "skip", description: "The page has no h2/h3 headings." };
    const linkable = headings.filter(isLinkable).length;
    const description = `${linkable} of ${headings.length} h2/h3 heading${headings.length === 1 ? " has" : "s have"} an id to link to.`;
    if (linkable * 2 > headings.length) return { status: "pass", description };
    return {
      status: linkable > 0 ? "warn" : "fail",
      description,
      fix: 'Give each h2/h3 an id (<h2 id="pricing">) so that answers and readers can link straight to the section.',
    };
  },
});
