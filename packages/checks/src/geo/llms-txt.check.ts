import { defineCheck } from "../check";
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
      fix: `Publish ${resource.url} as text/plain or text/markdown: '# Site name', a '> one-paragraph summary', then '## Section' headings listing '- [Page](url): note' links to your key pages.`,
      evidence: [resource.url, String(resource.status), found.why],
    };
  },
});
