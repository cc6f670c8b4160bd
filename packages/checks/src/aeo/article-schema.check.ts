import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { jsonLd, nodesOfType, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import type { Page } from "../page";
import { ancestor, elementsNamed, isInert } from "../seo/dom";

// Article and its subtypes in schema.org
export const ARTICLE_TYPES = [
  ...["Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "MedicalScholarlyArticle"],
  ...["Report", "LiveBlogPosting", "AnalysisNewsArticle", "OpinionNewsArticle", "ReviewNewsArticle"],
  ...["BackgroundNewsArticle", "ReportageNewsArticle", "AskPublicNewsArticle", "SatiricalArticle"],
  ...["AdvertiserContentArticle", "SocialMediaPosting", "DiscussionForumPosting"],
];

const REQUIRED = ["headline", "author", "datePublished"] as const;

/**
 * Whether the page itself reads as an article by its markup: a single `<article>`, or one that
 * holds the page's `<h1>`. A listing whose cards are `<article>`s (shops, blog indexes) is not.
 */
export const hasArticleElement = (page: Page): boolean => {
  const articles = elementsNamed(page, "article").filter((element) => !isInert(element));
  if (articles.length === 1) return true;
  return elementsNamed(page, "h1").some(
    (h1) => !isInert(h1) && ancestor(h1, (node) => node.localName === "article") !== null,
  );
};

/**
 * Reads the page's JSON-LD for an Article, BlogPosting, NewsArticle (or another Article
 * subtype) with headline, author and datePublished: what engines show as source, byline and
 * date. Of several, the most complete is judged. One declared in a block that does not parse is
 * reported as present but unreadable. Skipped when the page is not an article: no Article-type
 * markup (readable or not) and no `<article>` that stands for the page (docs/spec/checks.md says
 * "no `<article>`"; cards of a listing page are `<article>`s too, and an SEO would not ask a
 * category page for Article markup).
 */
export const articleSchema = defineCheck({
  id: "article-schema",
  category: "aeo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Article is marked up",
  run: (page) => {
    const graded = nodesOfType(page, ARTICLE_TYPES)
      .map((node) => ({
        type: typesOf(node).find((type) => ARTICLE_TYPES.includes(type)) ?? "Article",
        missing: REQUIRED.filter((key) => !textOf(node[key])),
      }))
      .sort((a, b) => a.missing.length - b.missing.length);
    const best = graded[0];
    if (!best) {
      const declared = jsonLd(page).unreadableNodes.find((node) =>
        typesOf(node).some((type) => ARTICLE_TYPES.includes(type)),
      );
      if (declared) {
        const type = typesOf(declared).find((name) => ARTICLE_TYPES.includes(name)) ?? "Article";
        const headline = textOf(declared.headline);
        return {
          status: "fail",
          description: `${type} markup${headline ? ` ("${headline.slice(0, 60)}")` : ""} is present but unreadable: ${unreadableNote(page, ARTICLE_TYPES)}`,
          fix: unreadableFix(page, `its ${type}${headline ? ` "${headline.slice(0, 60)}"` : ""}`),
          evidence: [type, headline ?? ""],
        };
      }
      if (!hasArticleElement(page)) {
        return {
          status: "skip",
          description: "The page is not an article (no <article> for the page, no Article markup).",
          evidence: [],
        };
      }
      const note = unreadableNote(page);
      const headline = page.main.heading ? readableText(page.main.heading) : "";
      return {
        status: "fail",
        description: `The page is set as an <article>${headline ? ` ("${headline.slice(0, 60)}")` : ""} but its JSON-LD has no Article, BlogPosting or NewsArticle${note ? `; ${note}` : "."}`,
        fix: `${note ? `${unreadableFix(page)} ` : ""}Add Article (or BlogPosting, NewsArticle) JSON-LD with headline${headline ? ` "${headline.slice(0, 60)}"` : ""}, author (a Person with a name) and datePublished, as the page states them.`,
        evidence: [headline ?? "", note],
      };
    }
    const evidence = [best.type, ...best.missing];
    if (best.missing.length === 0) {
      return { status: "pass", description: `${best.type} markup with headline, author and datePublished.`, evidence };
    }
    return {
      status: "warn",
      description: `${best.type} markup lacks ${best.missing.join(", ")}.`,
      fix: `Add ${best.missing.join(", ")} to the ${best.type} JSON-LD, as the page states ${best.missing.length === 1 ? "it" : "them"}${best.missing.includes("datePublished") ? " (an ISO 8601 date such as 2026-01-31)" : ""}.`,
      evidence,
    };
  },
});
