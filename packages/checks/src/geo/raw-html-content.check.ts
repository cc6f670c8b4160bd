import { defineCheck } from "../check";
import { extractMainContent } from "../page";

const wordsOf = (text: string): Set<string> => new Set(text === "" ? [] : text.toLowerCase().split(" "));

/**
 * Crawlers that do not run JavaScript (most AI crawlers today) see only the served HTML. The
 * main content is extracted from the served HTML the same way as from the rendered DOM, and
 * the share of the rendered main content's distinct words found in it is judged: 80 % or more
 * passes, 30 to 79 % warns, less fails. A page whose rendered main content is empty skips.
 */
export const rawHtmlContent = defineCheck({
  id: "raw-html-content",
  category: "geo",
  severity: "critical",
  maxScore: 8,
  quick: false,
  title: "Content is in the HTML without JavaScript",
  run: (page) => {
    const rendered = wordsOf(page.main.text);
    if (rendered.size === 0)
      return { status: "skip", description: "The rendered page has no main content to compare." };
    const raw =
      page.snapshot.rawHtml === page.snapshot.renderedHtml
        ? rendered
        : wordsOf(extractMainContent(page.snapshot.rawHtml).text);
    let shared = 0;
    for (const word of rendered) if (raw.has(word)) shared += 1;
    const share = Math.round((shared / rendered.size) * 100);
    const description = `The served HTML holds ${share} % of the rendered main content's words (${page.main.words} words rendered).`;
    if (share >= 80) return { status: "pass", description };
    return {
      status: share >= 30 ? "warn" : "fail",
      description: `${description} Crawlers that do not run JavaScript see ${share >= 30 ? "part" : "little"} of it.`,
      fix: "Render the main content on the server (SSR or static generation) so it is in the HTML as served.",
    };
  },
});
