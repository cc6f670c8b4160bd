import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { elementIndex, isInert } from "../seo/dom";

const SECTIONING = ["article", "section", "nav", "header", "footer"] as const;
type Landmark = "main" | (typeof SECTIONING)[number];

// ARIA roles stand for the elements (role="main" on a <div> is a main landmark to assistive tech and parsers alike)
const ROLE_OF: Record<string, Landmark> = {
  main: "main",
  article: "article",
  region: "section",
  navigation: "nav",
  banner: "header",
  contentinfo: "footer",
};

/**
 * HTML landmarks in the rendered DOM: `<main>` and at least one of article, section, nav,
 * header, footer pass; one of the two groups alone warns (main without the others, or the
 * others without main); neither fails. ARIA landmark roles count as their elements. Elements
 * in noscript or template do not exist for a browser and do not count.
 */
export const semanticLandmarks = defineCheck({
  id: "semantic-landmarks",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Page uses semantic landmarks",
  run: (page) => {
    const found = new Set<Landmark>();
    for (const element of elementIndex(page).all) {
      const tag = element.localName;
      const role = (element.getAttribute("role") ?? "").trim().toLowerCase();
      const landmark = tag === "main" || SECTIONING.some((name) => name === tag) ? (tag as Landmark) : ROLE_OF[role];
      if (landmark && !found.has(landmark) && !isInert(element)) found.add(landmark);
    }
    const main = found.has("main");
    const others = SECTIONING.filter((name) => found.has(name)).map((name) => `<${name}>`);
    if (main && others.length > 0) {
      return { status: "pass", description: `The page has <main> and ${others.join(", ")}.`, evidence: others };
    }
    // the content to wrap, as the reader knows it: its h1
    const heading = page.main.heading ? readableText(page.main.heading) : "";
    const content = heading
      ? `the content under the h1 "${heading.length > 60 ? `${heading.slice(0, 59)}…` : heading}"`
      : "the main content";
    if (main) {
      return {
        status: "warn",
        description: "The page has <main> but no article, section, nav, header or footer.",
        fix: `Mark up the page's parts with <header>, <nav>, <article> (around ${content}) or <section>, and <footer>.`,
        evidence: ["<main>"],
      };
    }
    if (others.length > 0) {
      return {
        status: "warn",
        description: `The page has ${others.join(", ")} but no <main>.`,
        fix: `Wrap ${content} in one <main> element, beside the ${others.join(", ")} the page has.`,
        evidence: others,
      };
    }
    return {
      status: "fail",
      description: "The page has no <main>, article, section, nav, header or footer: only generic elements.",
      fix: `Use <main> for ${content} and <header>, <nav>, <article>, <footer> for the page's parts.`,
      evidence: [],
    };
  },
});
