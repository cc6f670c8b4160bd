import type { TextResource } from "@scan/shared/snapshot";
import { defineCheck } from "../check";
import type { Page } from "../page";

/**
 * The llms.txt file when the origin has one: a 2xx that is not an HTML page (sites that
 * answer every path with their HTML shell, or a soft 404, do not have an llms.txt).
 */
export const llmsTxtFile = (page: Page): { file: TextResource | null; why: string } => {
  const resource = page.snapshot.llmsTxt;
  if (!resource) return { file: null, why: "llms.txt was not fetched" };
  if (resource.status === 0)
    return { file: null, why: `/llms.txt could not be fetched (${resource.error ?? "no answer"})` };
  if (resource.status < 200 || resource.status >= 300)
    return { file: null, why: `/llms.txt answers ${resource.status}` };
  const body = resource.body ?? "";
  const type = (resource.contentType ?? "").toLowerCase();
  if (type.includes("html") || /^\s*</.test(body))
    return { file: null, why: "/llms.txt answers with an HTML page, not a text file" };
  if (body.trim() === "") return { file: null, why: "/llms.txt is empty" };
  return { file: resource, why: "" };
};

/**
 * `/llms.txt` (llmstxt.org) at the final origin. Missing is a warn, not a fail: no AI vendor
 * documents reading it yet (Google says its search ignores it). A 5xx fails: the server is
 * broken for that path.
 */
export const llmsTxt = defineCheck({
  id: "llms-txt",
  category: "geo",
  severity: "warning",
  maxScore: 5,
  quick: true,
  title: "Site has an llms.txt",
  run: (page) => {
    const { file, why } = llmsTxtFile(page);
    if (file) {
      return {
        status: "pass",
        description: `/llms.txt answers ${file.status} with ${file.body?.length ?? 0} characters of text.`,
      };
    }
    const status = page.snapshot.llmsTxt?.status ?? 0;
    if (status >= 500 || status === 0) {
      return {
        status: "fail",
        description: `${why}.`,
        fix: "Make /llms.txt answer 200 with a markdown summary of the site, or 404 if you do not publish one.",
      };
    }
    return {
      status: "warn",
      description: `${why}: the site has no llms.txt. It is a proposal (llmstxt.org) that no AI vendor documents reading yet, so this weighs little.`,
      fix: "Publish /llms.txt: an H1 with the site's name, a > summary, and sections of markdown links to your key pages.",
    };
  },
});

const H1 = /^#\s+\S/m;
const BLOCKQUOTE = /^>\s*\S/m;
const SECTION = /^##\s+\S/m;
const MD_LINK = /\[[^\]]+\]\([^)\s]+\)/;

/**
 * The llms.txt structure of llmstxt.org: an H1, a blockquote summary, and `##` sections of
 * markdown links. Lighthouse's llms-txt rule (an H1, a link and 50+ characters) earns a warn.
 */
export const llmsTxtFormat = defineCheck({
  id: "llms-txt-format",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "llms.txt follows the llmstxt.org format",
  run: (page) => {
    const { file } = llmsTxtFile(page);
    if (!file) return { status: "skip", description: "The site has no llms.txt to judge." };
    const body = file.body ?? "";
    const has = {
      h1: H1.test(body),
      summary: BLOCKQUOTE.test(body),
      sections: SECTION.test(body),
      link: MD_LINK.test(body),
    };
    if (has.h1 && has.summary && has.sections && has.link) {
      return {
        status: "pass",
        description: "llms.txt has an H1, a blockquote summary and sections of markdown links.",
      };
    }
    const missing = [
      has.h1 ? null : "an H1 title",
      has.summary ? null : "a > summary",
      has.sections ? null : "## sections",
      has.link ? null : "markdown links",
    ].filter((part): part is string => part !== null);
    const status = has.h1 && has.link && body.trim().length >= 50 ? "warn" : "fail";
    return {
      status,
      description: `llms.txt lacks ${missing.join(", ")}.`,
      fix: "Start llms.txt with '# Site name', then '> one-paragraph summary', then '## Section' headings listing '[Page](url): note' links.",
    };
  },
});
