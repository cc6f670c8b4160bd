import { defineCheck } from "../check";
import { foldWhitespace } from "../page";
import { mainElementsNamed } from "./main-dom";

/**
 * h2/h3 headings with text inside the main content: 3 or more pass, 1 or 2 warn, none fails.
 * Sections under headings are the passages engines retrieve and cite one by one. (Readability
 * turns an `<h1>` inside the content into an `<h2>`; such a heading counts.)
 */
export const subheadings = defineCheck({
  id: "subheadings",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content is divided by subheadings",
  run: (page) => {
    const count = [...mainElementsNamed(page, "h2"), ...mainElementsNamed(page, "h3")].filter(
      (heading) => foldWhitespace(heading.textContent ?? "") !== "",
    ).length;
    const description = `The main content has ${count} h2/h3 subheading${count === 1 ? "" : "s"}.`;
    if (count >= 3) return { status: "pass", description };
    return {
      status: count > 0 ? "warn" : "fail",
      description,
      fix: "Split the content into sections under descriptive h2/h3 headings, one topic or question each.",
    };
  },
});
