import { clipAtWord } from "@scan/checks";
import type { Link, PageFacts } from "./page-facts";
import { siteNameNotes } from "./page-metadata";

/** A text file ready to publish at the site's root, and what it fixes. */
export type TextFileFix = {
  addresses: string[];
  /** where to serve it: "/llms.txt", "/robots.txt" */
  path: string;
  contentType: string;
  content: string;
  placement: string;
  notes: string[];
};

const SUMMARY_MAX = 300;
const NOTE_MAX = 200;

/** A link label: one line, no square brackets (they would end the label early). */
const label = (text: string): string => text.replace(/\[/g, "(").replace(/\]/g, ")").replace(/\s+/g, " ").trim();

/** A link target: parentheses and spaces encoded so that the markdown link ends where it should. */
const target = (url: string): string => url.replace(/ /g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");

const line = (link: Link, note?: string | null): string =>
  `- [${label(link.text)}](${target(link.url)})${note ? `: ${label(clipAtWord(note, NOTE_MAX))}` : ""}`;

/**
 * llms.txt in the llmstxt.org format, from the page alone: an H1 with the site's name (its
 * JSON-LD WebSite or Organization name, else og:site_name or application-name, else its host
 * name: @scan/checks `siteNameOf`, as the llms-txt check's fix names it), a `>` summary (the meta description, else the
 * first paragraph of the content, else the title, else the start of the text), then `##` sections of markdown links:
 * "Navigation" (same-site links of the page's nav and header), "This page" (the page itself
 * with its description, then the same-site links of its main content) and "Optional" (footer
 * links; llmstxt.org's name for links a reader may skip). Only links the page has are listed,
 * and only with visible text: a link whose text is zero-width characters alone is left out.
 * It describes the site as seen from this one page: a starting point to extend by hand.
 */
export const generateLlmsTxt = (facts: PageFacts): TextFileFix => {
  const notes: string[] = [];
  const name = facts.siteName?.value ?? facts.host;
  if (!facts.siteName)
    notes.push(`The page does not name its site (og:site_name, application-name, JSON-LD); the H1 is the host name.`);
  notes.push(...siteNameNotes(facts.siteName, "The H1"));
  const mainText = facts.page.main.text;
  const summarySource = facts.description?.value ?? facts.intro ?? facts.title ?? (mainText !== "" ? mainText : name);
  const summary = clipAtWord(summarySource.replace(/\s+/g, " ").trim(), SUMMARY_MAX);
  const pageTitle = facts.title ?? facts.h1 ?? facts.url;
  const sections: string[] = [];
  if (facts.links.nav.length > 0) {
    sections.push(["## Navigation", "", ...facts.links.nav.map((link) => line(link))].join("\n"));
  }
  sections.push(
    [
      "## This page",
      "",
      line({ text: pageTitle, url: facts.url }, facts.description?.value),
      ...facts.links.content.map((link) => line(link)),
    ].join("\n"),
  );
  if (facts.links.footer.length > 0) {
    sections.push(["## Optional", "", ...facts.links.footer.map((link) => line(link))].join("\n"));
  }
  if (facts.links.nav.length === 0)
    notes.push("The page has no same-site navigation links; add your key pages by hand.");
  const content = `# ${label(name)}\n\n> ${summary}\n\n${sections.join("\n\n")}\n`;
  return {
    addresses: ["llms-txt", "llms-txt-format"],
    path: "/llms.txt",
    contentType: "text/markdown; charset=utf-8",
    content,
    placement: `Serve this as ${facts.origin}/llms.txt (text/markdown or text/plain, status 200).`,
    notes,
  };
};
