import { defineCheck } from "../check";
import { llmsTxtFile } from "./llms-file";

const MD_LINK = /\[[^\]\n]+\]\(\s*[^)\s]+[^)]*\)/;

type Outline = { h1: boolean; summary: boolean; linkSections: number; links: number; characters: number };

/**
 * The parts of llmstxt.org's format, read line by line outside fenced code blocks: the H1
 * title, the `>` summary before the first `##` section, and `##` sections that list markdown
 * links.
 */
const outline = (body: string): Outline => {
  const result: Outline = { h1: false, summary: false, linkSections: 0, links: 0, characters: body.trim().length };
  let inFence = false;
  let inSection = false;
  let sectionHasLink = false;
  const closeSection = () => {
    if (inSection && sectionHasLink) result.linkSections += 1;
  };
  for (const line of body.split(/\r?\n/)) {
    if (/^\s*(?:```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (/^#\s+\S/.test(line)) result.h1 = true;
    else if (/^##\s+\S/.test(line)) {
      closeSection();
      inSection = true;
      sectionHasLink = false;
    } else if (/^>\s*\S/.test(line) && !inSection) result.summary = true;
    else if (MD_LINK.test(line)) {
      result.links += 1;
      if (inSection) sectionHasLink = true;
    }
  }
  closeSection();
  return result;
};

/**
 * llms.txt follows llmstxt.org: an H1 with the site's name, a `>` blockquote summary before
 * the sections, and `##` sections of markdown links. Lighthouse's llms-txt rule (an H1, a
 * markdown link and 50 or more characters) earns a warn; less fails. Skips when the site has
 * no llms.txt (llms-txt judges that).
 */
export const llmsTxtFormat = defineCheck({
  id: "llms-txt-format",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "llms.txt follows the llmstxt.org format",
  run: (page) => {
    const found = llmsTxtFile(page);
    if (!found.file) return { status: "skip", description: `There is no llms.txt to judge: ${found.why}.` };
    const parts = outline(found.body);
    const fix =
      "Start llms.txt with '# Site name', then a '> one-paragraph summary', then '## Section' headings, each listing '- [Page title](https://...): what it covers' links.";
    if (parts.h1 && parts.summary && parts.linkSections > 0) {
      return {
        status: "pass",
        description: `llms.txt has an H1, a blockquote summary and ${parts.linkSections} section${parts.linkSections === 1 ? "" : "s"} of markdown links (${parts.links} links).`,
      };
    }
    const missing = [
      parts.h1 ? null : "an H1 title",
      parts.summary ? null : "a > summary before the sections",
      parts.linkSections > 0 ? null : "## sections of markdown links",
    ].filter((part): part is string => part !== null);
    const minimum = parts.h1 && parts.links > 0 && parts.characters >= 50;
    return {
      status: minimum ? "warn" : "fail",
      description: minimum
        ? `llms.txt meets Lighthouse's minimum (an H1, a link, 50+ characters) but lacks ${missing.join(", ")}.`
        : `llms.txt lacks ${missing.join(", ")}${parts.links === 0 ? " and has no markdown link" : ""}${parts.characters < 50 ? ` and holds only ${parts.characters} characters` : ""}.`,
      fix: `${fix} It lacks ${missing.join(", ")}.`,
      evidence: [...missing, String(parts.links), String(parts.characters)],
    };
  },
});
