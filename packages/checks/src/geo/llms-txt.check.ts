import { defineCheck } from "../check";
import { siteNameOf } from "../lib/organization";
import { contentSentences, headlineOf, navigationLinks, withoutHash } from "../lib/own-content";
import { excerpt } from "../lib/text";
import { foldWhitespace, type Page } from "../page";
import { metaNamed } from "../seo/head";
import { llmsTxtFile } from "./llms-file";

const NOTE =
  "llms.txt is a proposal (llmstxt.org) that no AI vendor documents reading yet, and Google says its search ignores it, so this weighs little.";

/**
 * `/llms.txt` (llmstxt.org) at the final origin answers 200 with text. Missing (4xx, or a 200
 * that is an HTML page or empty) warns rather than fails: no AI vendor documents reading it. A
 * 5xx fails, and so does a fetch that got no answer at all, as for robots.txt under RFC 9309:
 * the server is failing on that path. A snapshot without the file fetched skips.
 */
export const llmsTxt = defineCheck({
  id: "llms-txt",
  category: "geo",
  severity: "warning",
  maxScore: 5,
  quick: true,
  title: "Site has an llms.txt",
  run: (page) => {
    const resource = page.snapshot.llmsTxt;
    if (!resource) return { status: "skip", description: "/llms.txt was not fetched for this scan." };
    const found = llmsTxtFile(page);
    if (found.file) {
      return {
        status: "pass",
        description: `/llms.txt answers ${found.file.status} with ${found.body.length.toLocaleString("en-US")} characters of text${found.file.truncated ? " (more than the scanner reads)" : ""}.`,
      };
    }
    if (resource.status === 0 || resource.status >= 500) {
      return {
        status: "fail",
        description: `${found.why}: the server fails on that path.`,
        fix: `Make ${resource.url} answer 200 with a markdown summary of the site, or 404 if you do not publish one.`,
        evidence: [resource.url, String(resource.status), found.why],
      };
    }
    return {
      status: "warn",
      description: `${found.why}. ${NOTE}`,
      fix: outlineFix(page, resource.url),
      evidence: [resource.url, String(resource.status), found.why],
    };
  },
});

/**
 * The file to publish, outlined from the page itself (as the llms.txt generator writes it): an
 * H1 with the site's name, a `>` summary from its meta description or content's opening, and the
 * key pages its navigation links; what the page does not give, its owner must supply.
 */
const outlineFix = (page: Page, url: string): string => {
  const site = siteNameOf(page);
  const description = foldWhitespace(metaNamed(page, "description")?.getAttribute("content") ?? "");
  const opening = contentSentences(page)[0] ?? "";
  const summary = description
    ? `'> ${excerpt(description, 100)}' (the page's meta description)`
    : opening
      ? `'> ${excerpt(opening, 100)}' (the content's opening; better, a summary of the whole site)`
      : "a '> one-paragraph summary' of the site (the page has none to start from, so its owner must write it)";
  const nav = navigationLinks(page, 4);
  const headline = headlineOf(page);
  const links =
    nav.length > 0
      ? `'## Sections' listing the key pages its navigation links, ${nav.map((link) => `'- [${excerpt(link.text, 30)}](${link.url})'`).join(", ")}${headline ? `, and this page as '- [${excerpt(headline, 50)}](${withoutHash(page.finalUrl)})'` : ""}`
      : `'## Sections' listing the site's key pages as '- [Page](url): note' (the page links none in a navigation, so its owner must choose them)`;
  return `Publish ${url} as text/plain or text/markdown: ${site ? `'# ${excerpt(site.value, 40)}' (the site's name, from ${site.source})` : `'# ${page.finalUrl.hostname.replace(/^www\./, "")}' (the page names no site in its JSON-LD, og:site_name, application-name or <title>, so the host stands for it until its owner names it)`}, ${summary}, then ${links}.`;
};
