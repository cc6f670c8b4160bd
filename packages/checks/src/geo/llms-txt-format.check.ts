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
    // CommonMark: up to three spaces may indent an ATX heading (four make a code block)
    if (/^ {0,3}#\s+\S/.test(line)) result.h1 = true;
    else if (/^ {0,3}##\s+\S/.test(line)) {
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
 * Lighthouse 13.5's `llms-txt` audit (core/audits/agentic/llms-txt.js), to the letter: an H1
 * anywhere (`/^\s*#\s+.+/m`, so an indented one or one inside a code fence counts), a markdown
 * link (`/\[.+\]\(.+\)/`) and 50 or more characters of the file as served.
 */
export const meetsLighthouseMinimum = (body: string): boolean =>
  /^\s*#\s+.+/m.test(body) && /\[.+\]\(.+\)/.test(body) && body.length >= 50;

/**
 * llms.txt follows llmstxt.org: an H1 with the site's name, a `>` blockquote summary before
 * the sections, and `##` sections of markdown links. A file that meets Lighthouse 13.5's
 * minimum (`meetsLighthouseMinimum`) but not the whole format warns; one that misses the
 * minimum fails, even when it has the format's parts (a file under 50 characters). Skips when
 * the site has no llms.txt (llms-txt judges that).
 *
 * Where the community recommendations (llmstxt.org) and Lighthouse differ: llmstxt.org asks for
 * the H1 as the file's first line, a blockquote summary and `##` sections of link lists, and
 * says nothing of length; Lighthouse asks only for an H1 anywhere (inside a code fence too), a
 * link anywhere and 50 characters. The pass here needs both; Lighthouse's pass is our pass or
 * warn. One disagreement stays: an H1 only inside a code fence is code, not a title, so the
 * file fails here where Lighthouse passes it (fixture llms-h1-in-fence). Lighthouse fails a 200 that is an HTML page or empty, which we call no llms.txt at all
 * (llms-file.ts; llms-txt warns): both say the site lacks a usable file, so the agreement test
 * maps that warn to Lighthouse's fail. Lighthouse treats a 4xx as not applicable where llms-txt
 * warns, and both fail a 5xx or a fetch with no answer.
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
    // a heading inside a code fence is code, not the file's title: Lighthouse counts it, we do not
    const minimum = meetsLighthouseMinimum(found.body) && parts.h1;
    if (parts.h1 && parts.summary && parts.linkSections > 0 && minimum) {
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
    return {
      status: minimum ? "warn" : "fail",
      description: minimum
        ? `llms.txt meets Lighthouse's minimum (an H1, a link, 50+ characters) but lacks ${missing.join(", ")}.`
        : `llms.txt ${missing.length ? `lacks ${missing.join(", ")}` : "misses Lighthouse's minimum (an H1, a link, 50+ characters)"}${parts.links === 0 ? " and has no markdown link" : ""}${found.body.length < 50 ? ` and holds only ${found.body.length} characters` : ""}.`,
      fix: missing.length ? `${fix} It lacks ${missing.join(", ")}.` : `${fix} Write at least 50 characters.`,
      evidence: [...missing, String(parts.links), String(found.body.length)],
    };
  },
});
