import { defineCheck } from "../check";
import { clip } from "../lib/text";
import { foldWhitespace } from "../page";
import { ancestor, elementsNamed, isHiddenByMarkup, isInert } from "./dom";

// Explicit roles whose elements need an accessible name (WAI-ARIA). axe's image-alt covers an
// <img> with no role, role none/presentation or one of these; any other explicit role (e.g.
// "group") takes it out of the rule unless it is focusable.
const NAME_REQUIRED_ROLES = new Set([
  "img",
  "link",
  "button",
  "checkbox",
  "combobox",
  "dialog",
  "alertdialog",
  "heading",
  "listbox",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "meter",
  "option",
  "progressbar",
  "radio",
  "radiogroup",
  "scrollbar",
  "searchbox",
  "slider",
  "spinbutton",
  "switch",
  "tab",
  "textbox",
  "tree",
  "treegrid",
  "treeitem",
]);

const roleOf = (img: Element): string => (img.getAttribute("role") ?? "").trim().toLowerCase().split(/\s+/)[0] ?? "";

const isApplicable = (img: Element): boolean => {
  if (isInert(img) || isHiddenByMarkup(img)) return false;
  if (ancestor(img, (node) => node.getAttribute("aria-hidden") === "true")) return false;
  const role = roleOf(img);
  return ["", "none", "presentation"].includes(role) || NAME_REQUIRED_ROLES.has(role) || img.hasAttribute("tabindex");
};

const nonBlank = (value: string | null): boolean => value !== null && value.trim() !== "";

/** axe's image-alt: an alt attribute (alt="" marks decoration), a label, a title, or role none/presentation. */
const hasTextAlternative = (img: Element, doc: Document): boolean => {
  const alt = img.getAttribute("alt");
  // an alt of spaces is neither a description nor the empty decorative marker (axe alt-space-value)
  if (alt !== null) return alt === "" || alt.trim() !== "";
  if (nonBlank(img.getAttribute("aria-label")) || nonBlank(img.getAttribute("title"))) return true;
  const labelledBy = (img.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
  if (labelledBy.some((id) => foldWhitespace(doc.getElementById(id)?.textContent ?? "") !== "")) return true;
  const role = roleOf(img);
  return role === "none" || role === "presentation";
};

const nameOf = (img: Element): string => {
  const src = img.getAttribute("src") ?? img.getAttribute("data-src") ?? "";
  return src.startsWith("data:")
    ? "an inline data: image"
    : clip(src.split("?")[0] ?? src, 60) || "an image without src";
};

/**
 * Lighthouse `image-alt` (axe-core's rule): every `<img>` exposed to assistive technology has
 * a text alternative: an alt attribute (alt="" marks it decorative), aria-label,
 * aria-labelledby, title, or role none/presentation; an alt of only spaces fails. Images in
 * `<noscript>`, inside aria-hidden="true" or hidden by markup are left out, as axe leaves out
 * hidden elements (stylesheet-hidden images cannot be seen here and are counted).
 * Up to 10 % without alt warns, more fails; no applicable image skips.
 */
export const imageAlt = defineCheck({
  id: "image-alt",
  category: "seo",
  severity: "warning",
  maxScore: 4,
  quick: false,
  title: "Images have alt text",
  run: (page) => {
    const { doc } = page;
    const images = elementsNamed(page, "img").filter(isApplicable);
    if (images.length === 0) return { status: "skip", description: "The page has no images.", evidence: [] };
    const missing = images.filter((img) => !hasTextAlternative(img, doc));
    if (missing.length === 0) {
      return {
        status: "pass",
        description: `All ${images.length} images have a text alternative or are marked decorative.`,
        evidence: [],
      };
    }
    const share = missing.length / images.length;
    const examples = missing.slice(0, 3).map(nameOf).join(", ");
    return {
      status: share <= 0.1 ? "warn" : "fail",
      description: `${missing.length} of ${images.length} images (${Math.round(share * 100)} %) have no alt text, e.g. ${examples}.`,
      fix: `Give each of the ${missing.length} images an alt that says what it shows (${examples}${missing.length > 3 ? ", ..." : ""}); mark purely decorative ones with alt="".`,
      evidence: [String(missing.length), String(images.length), ...missing.slice(0, 3).map(nameOf)],
    };
  },
});
