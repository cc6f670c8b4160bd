import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { jsonLd, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { declaredKind, NEWS_ARTICLE_TYPES, newsArticle } from "../lib/page-kind";

/**
 * Reads the page's JSON-LD for a `speakable` property (schema.org SpeakableSpecification, by
 * cssSelector or xpath, or a URL) on any node: the passages fit for reading aloud by voice
 * assistants. Google's speakable is a beta for news publishers, so the check applies to news
 * articles only (lib/page-kind.ts `newsArticle`) and skips other pages; few engines read it,
 * hence 1 point.
 */
export const speakable = defineCheck({
  id: "speakable",
  category: "aeo",
  severity: "info",
  maxScore: 1,
  quick: false,
  title: "Speakable parts are marked",
  run: (page) => {
    const owner = jsonLd(page).nodes.find((node) => node.speakable !== undefined && node.speakable !== null);
    if (owner) {
      const type = typesOf(owner)[0];
      return {
        status: "pass",
        description: `The ${type ?? "JSON-LD"} markup has a speakable property.`,
        evidence: [type ?? ""],
      };
    }
    const news = newsArticle(page);
    if (!news) {
      const kind = declaredKind(page);
      return {
        status: "skip",
        description: `Not applicable: speakable is a beta for news articles, and nothing marks this page as one (${kind || "no og:type, no JSON-LD type"}).`,
        evidence: [kind],
      };
    }
    const unreadable = unreadableNote(page, NEWS_ARTICLE_TYPES);
    const headline = page.main.heading ? readableText(page.main.heading) : "";
    const named = headline ? ` ("${headline.length > 60 ? `${headline.slice(0, 59)}…` : headline}")` : "";
    return {
      status: "fail",
      description: `The page is a news article (${news}) with no speakable property in its readable JSON-LD.${unreadable ? ` ${unreadable}` : ""}`,
      fix: `${unreadable ? `${unreadableFix(page, "its NewsArticle")} Then add` : "Add"} "speakable": {"@type": "SpeakableSpecification", "cssSelector": ["h1", ".summary"]} to the NewsArticle JSON-LD, pointing at the headline${named} and a short summary (a beta for news publishers that few engines read).`,
      evidence: [news, unreadable],
    };
  },
});
