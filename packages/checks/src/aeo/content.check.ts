import { defineCheck } from "../check";
import { countWords, foldWhitespace } from "../page";
import { elementsNamed, isInert } from "../seo/dom";

/**
 * The first paragraph of the main content, 15 to 80 words: a summary an engine can quote as
 * the page's answer. Paragraphs under 5 words (datelines, captions, "Share") are passed over.
 */
export const summaryIntro = defineCheck({
  id: "summary-intro",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content opens with a summary",
  run: (page) => {
    const first = [...page.main.root.querySelectorAll("p")]
      .map((p) => foldWhitespace(p.textContent ?? ""))
      .find((text) => countWords(text) >= 5);
    if (first === undefined) {
      return {
        status: "fail",
        description: "The main content has no paragraph of text.",
        fix: "Open the content with a 15 to 80 word paragraph that sums up the page.",
      };
    }
    const words = countWords(first);
    if (words >= 15 && words <= 80) {
      return { status: "pass", description: `The main content opens with a ${words}-word paragraph.` };
    }
    return {
      status: "fail",
      description: `The main content's first paragraph has ${words} words; 15 to 80 reads as a summary.`,
      fix:
        words > 80
          ? "Open with a shorter paragraph (15 to 80 words) that states the page's answer, then expand."
          : "Open with a paragraph of 15 to 80 words that sums up the page.",
    };
  },
});

/** A list of three or more items or a table with header cells in the main content: structure engines lift whole. */
export const listsAndTables = defineCheck({
  id: "lists-and-tables",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content uses lists or tables",
  run: (page) => {
    const root = page.main.root;
    const lists = [...root.querySelectorAll("ul, ol")].filter(
      (list) => [...list.children].filter((child) => child.localName === "li").length >= 3,
    );
    const tables = [...root.querySelectorAll("table")].filter((table) => table.querySelector("th") !== null);
    if (lists.length > 0 || tables.length > 0) {
      const parts = [
        lists.length > 0 ? `${lists.length} list${lists.length === 1 ? "" : "s"} of 3+ items` : null,
        tables.length > 0 ? `${tables.length} table${tables.length === 1 ? "" : "s"} with headers` : null,
      ].filter(Boolean);
      return { status: "pass", description: `The main content has ${parts.join(" and ")}.` };
    }
    return {
      status: "fail",
      description: "The main content has no list of 3 or more items and no table with header cells.",
      fix: "Put steps, options and comparisons in <ol>/<ul> lists or a <table> with <th> headers.",
    };
  },
});

/** Main content length: 300 words or more passes, 100 to 299 warns. */
export const contentDepth = defineCheck({
  id: "content-depth",
  category: "aeo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Content has depth",
  run: (page) => {
    const { words, source } = page.main;
    const description = `The main content (${source === "readability" ? "as Readability extracts it" : `the <${source}>`}) has ${words} words.`;
    if (words >= 300) return { status: "pass", description };
    return {
      status: words >= 100 ? "warn" : "fail",
      description,
      fix: "Cover the topic in enough depth to answer follow-up questions: 300 words or more of real content.",
    };
  },
});

/** h2/h3 headings inside the main content: 3 or more passes, 1 or 2 warns. */
export const subheadings = defineCheck({
  id: "subheadings",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content is divided by subheadings",
  run: (page) => {
    const count = [...page.main.root.querySelectorAll("h2, h3")].filter(
      (heading) => foldWhitespace(heading.textContent ?? "") !== "",
    ).length;
    const description = `The main content has ${count} h2/h3 subheading${count === 1 ? "" : "s"}.`;
    if (count >= 3) return { status: "pass", description };
    return {
      status: count > 0 ? "warn" : "fail",
      description,
      fix: "Split the content into sections under descriptive h2/h3 headings.",
    };
  },
});

const SECTIONING = ["article", "section", "nav", "header", "footer"];

/**
 * HTML landmarks: `<main>` plus at least one of article, section, nav, header, footer passes;
 * one of the two warns (main alone, or sectioning elements without main). ARIA roles
 * (role="main", ...) count as their elements.
 */
export const semanticLandmarks = defineCheck({
  id: "semantic-landmarks",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Page uses semantic landmarks",
  run: (page) => {
    const present = (tag: string) =>
      elementsNamed(page, tag).some((element) => !isInert(element)) ||
      page.doc.querySelector(
        `[role="${tag === "header" ? "banner" : tag === "footer" ? "contentinfo" : tag === "nav" ? "navigation" : tag === "section" ? "region" : tag}"]`,
      ) !== null;
    const main = present("main");
    const others = SECTIONING.filter(present);
    if (main && others.length > 0) {
      return { status: "pass", description: `The page has <main> and ${others.map((t) => `<${t}>`).join(", ")}.` };
    }
    if (main || others.length > 0) {
      return {
        status: "warn",
        description: main
          ? "The page has <main> but no article, section, nav, header or footer."
          : `The page has ${others.map((t) => `<${t}>`).join(", ")} but no <main>.`,
        fix: main
          ? "Mark up the page's parts with <header>, <nav>, <article>/<section> and <footer>."
          : "Wrap the page's main content in <main>.",
      };
    }
    return {
      status: "fail",
      description: "The page has no <main>, article, section, nav, header or footer: only generic <div>s.",
      fix: "Use <main> for the main content and <header>, <nav>, <article>, <footer> for the page's parts.",
    };
  },
});
