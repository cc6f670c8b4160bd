import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { placeholderOf } from "../lib/placeholder";

const SOURCE = {
  readability: "the main content as Readability extracts it",
  main: "the <main> element",
  article: "the <article> element",
  body: "the page body (no main content could be told apart)",
} as const;

/**
 * Reads the words of the main content (page.ts: Readability's extraction with the page's h1,
 * never navigation, sidebars or widgets; Chinese, Japanese and Thai segmented into words by
 * page.ts `countWords`). 300 words or more passes, 100 to 299 warns, less fails: thin pages
 * rarely hold an answer worth citing. A length heuristic, not a quality measure. A placeholder
 * page (lib/placeholder.ts: lorem ipsum, "coming soon", a CMS's sample text) fails here, once,
 * saying so; the other checks of the content's text skip on it, pointing here.
 */
export const contentDepth = defineCheck({
  id: "content-depth",
  category: "aeo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Content has depth",
  run: (page) => {
    const words = page.main.words;
    const placeholder = placeholderOf(page);
    if (placeholder) {
      const heading = page.main.heading ? readableText(page.main.heading) : "";
      const shortHeading = heading.length > 60 ? `${heading.slice(0, 59)}…` : heading;
      const opening = placeholder.sample.length > 40 ? `${placeholder.sample.slice(0, 39)}…` : placeholder.sample;
      // the one finding of a placeholder page: the other content checks skip and point here
      return {
        status: "fail",
        description: `The main content${shortHeading ? ` under "${shortHeading}"` : ""} is a placeholder, ${placeholder.kind}, not the page's content: "${placeholder.sample}" (${words} word${words === 1 ? "" : "s"}). The other content checks do not judge it.`,
        fix: `Replace the ${words} word${words === 1 ? "" : "s"} of placeholder text ("${opening}")${shortHeading ? ` under "${shortHeading}"` : ""} with the page's real content (its owner must supply it), or keep the page out of the index (noindex) until it has some.`,
        evidence: [placeholder.kind, placeholder.sample, String(words), shortHeading],
      };
    }
    const description = `${SOURCE[page.main.source]} has ${words} word${words === 1 ? "" : "s"}${words < 300 ? "; 300 or more cover a topic in depth" : ""}.`;
    const sentence = description.charAt(0).toUpperCase() + description.slice(1);
    if (words >= 300) return { status: "pass", description: sentence, evidence: [String(words)] };
    const heading = page.main.heading ? readableText(page.main.heading) : "";
    return {
      status: words >= 100 ? "warn" : "fail",
      description: sentence,
      fix: `Cover ${heading ? `"${heading.length > 60 ? `${heading.slice(0, 59)}…` : heading}"` : "the topic"} in enough depth to answer the follow-up questions: ${300 - words} words or more beyond the ${words} there are, of real content in the main body, not in menus or footers.`,
      evidence: [String(words), page.main.source],
    };
  },
});
