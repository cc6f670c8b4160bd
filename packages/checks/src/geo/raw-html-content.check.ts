import { defineCheck } from "../check";
import { sharedWords, wordCounts } from "./words";

const percent = (share: number): number => Math.floor(share * 100);

/**
 * Crawlers that do not run JavaScript (most AI crawlers today) see only the HTML as served.
 * The main content is extracted from the served HTML the same way as from the rendered DOM
 * (Readability, then `<main>`, `<article>`, `<body>`), and the share of the rendered main
 * content's words found in it, counted with repetition, is judged: 80 % or more passes, 30 to
 * 79 % warns, less fails. Percentages round down, so 79.6 % is not a pass. A page whose
 * rendered main content is empty skips: there is nothing a crawler could miss.
 */
export const rawHtmlContent = defineCheck({
  id: "raw-html-content",
  category: "geo",
  severity: "critical",
  maxScore: 8,
  quick: false,
  title: "Content is in the HTML without JavaScript",
  run: (page) => {
    const rendered = wordCounts(page.main.text);
    if (rendered.total === 0)
      return { status: "skip", description: "The rendered page has no main content to compare." };
    const served = page.snapshot.rawHtml === page.snapshot.renderedHtml ? rendered : wordCounts(page.servedText);
    const share = percent(sharedWords(rendered, served));
    const description = `The HTML as served holds ${share} % of the rendered main content's ${rendered.total} words.`;
    if (share >= 80) return { status: "pass", description };
    return {
      status: share >= 30 ? "warn" : "fail",
      description: `${description} Crawlers that do not run JavaScript, as most AI crawlers do not, see ${share >= 30 ? "only part" : "little"} of it.`,
      fix: `Render the main content on the server (server-side rendering or static generation) so that all ${rendered.total} of its words are in the HTML as served, not ${share} % of them; scripts should not add them.`,
      evidence: [String(share), String(rendered.total)],
    };
  },
});
