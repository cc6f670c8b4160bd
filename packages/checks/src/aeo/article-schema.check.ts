import { defineCheck } from "../check";
import { visibleByline } from "../geo/byline";
import { isoDay, pageDates, publishedDate, shownDate } from "../geo/dates";
import { readableText } from "../lib/element";
import { type JsonLdNode, jsonLd, nodesOfType, textOf, typesOf, unreadableFix, unreadableNote } from "../lib/jsonld";
import { type HtmlSyntax, htmlItems } from "../lib/microdata";
import { headlineOf } from "../lib/own-content";
import { jsonString } from "../lib/text";
import type { Page } from "../page";
import { ancestor, elementsNamed, isInert } from "../seo/dom";

/**
 * The publish date to give datePublished, from the page itself: a date it states (a meta, its
 * content's <time>) or writes out in its content; else that its owner must supply one.
 */
const pageDateNote = (page: Page): string => {
  const stated = publishedDate(pageDates(page).dates);
  if (stated) return ` (datePublished "${isoDay(stated.date)}", the page's ${stated.source})`;
  const shown = shownDate(page);
  if (shown) return ` (datePublished "${shown.iso}": the page shows "${shown.written}")`;
  return " (datePublished as YYYY-MM-DD: the page shows no date, so its owner must supply it)";
};

/** datePublished with the page's own date: one it states, one it shows, or its owner's to supply. */
const datePublishedOf = (page: Page): string => {
  const stated = publishedDate(pageDates(page).dates);
  if (stated) return `datePublished "${isoDay(stated.date)}" (the page's ${stated.source})`;
  const shown = shownDate(page);
  if (shown) return `datePublished "${shown.iso}" (the page shows "${shown.written}")`;
  return "datePublished as YYYY-MM-DD (the page shows no date, so its owner must supply it)";
};

// Google shows up to 110 characters of a headline; a longer <title> is cut there rather than mid-word at 60
const MAX_HEADLINE = 110;

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
 * An article's headline, author and datePublished as the page itself gives them (its heading or
 * <title>, its byline, its stated or shown date), or that its owner must supply what it lacks.
 */
export const articleFacts = (page: Page): string => {
  const title = headlineOf(page);
  const fromHeading = page.main.heading !== null && readableText(page.main.heading) !== "";
  const byline = visibleByline(page);
  const writer = byline
    ? `author {"@type": "Person", "name": ${jsonString(byline.name)}} (the page's byline)`
    : "author as a Person (the page names no author, so its owner must supply the name)";
  const named = title
    ? `headline ${jsonString(title.slice(0, MAX_HEADLINE))}${fromHeading ? "" : " (its <title>)"}`
    : "headline (the page has no heading or title, so its owner must supply it)";
  return `${named}, ${writer} and ${datePublishedOf(page)}`;
};

/** An Article-type node of the page and the syntax it is written in. */
type Candidate = { syntax: "JSON-LD" | HtmlSyntax; node: JsonLdNode; element: Element | null };

const articleType = (node: JsonLdNode): string =>
  typesOf(node).find((type) => ARTICLE_TYPES.includes(type)) ?? "Article";

/**
 * A property of an article set beside its item rather than in it: an `itemprop="author"` on the
 * page outside the Article's `itemscope` belongs to another item (guardian-1's byline Person is
 * a property of its WebPage), which is why the Article lacks it. `itemprop="author" ("Jane Doe")`, or null.
 */
const strayProperty = (page: Page, item: Element, name: string): string | null => {
  for (const element of page.doc.querySelectorAll(`[itemprop~="${name}"]`)) {
    if (item.contains(element) || isInert(element)) continue;
    const named = element.querySelector('[itemprop~="name"]');
    const text = readableText(named ?? element) || (element.getAttribute("content") ?? "").trim();
    return `itemprop="${name}"${text ? ` ("${text.slice(0, 40)}")` : ""}`;
  }
  return null;
};

/**
 * Reads the page's Article, BlogPosting, NewsArticle (or another Article subtype) with headline,
 * author and datePublished: what engines show as source, byline and date. Google reads it in
 * JSON-LD, microdata and RDFa alike, and so does this check, with the same field rules (the
 * catalogue names the types, not a syntax); the description says which syntax was found, and the
 * fix advises JSON-LD, the syntax every engine reads and the page's other checks judge. Of
 * several, the most complete is judged (JSON-LD first among equals). One declared in a JSON-LD
 * block that does not parse is reported as present but unreadable when no other syntax holds
 * one. Skipped when the page is not an article: no Article-type markup (readable or not) and no
 * `<article>` that stands for the page (docs/spec/checks.md says "no `<article>`"; cards of a
 * listing page are `<article>`s too, and an SEO would not ask a category page for Article
 * markup).
 */
export const articleSchema = defineCheck({
  id: "article-schema",
  category: "aeo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Article is marked up",
  run: (page) => {
    const candidates: Candidate[] = [
      ...nodesOfType(page, ARTICLE_TYPES).map((node) => ({ syntax: "JSON-LD" as const, node, element: null })),
      ...htmlItems(page)
        .filter((item) => typesOf(item.node).some((type) => ARTICLE_TYPES.includes(type)))
        .map((item) => ({ syntax: item.syntax, node: item.node, element: item.element })),
    ];
    const graded = candidates
      .map((candidate) => ({
        ...candidate,
        type: articleType(candidate.node),
        missing: REQUIRED.filter((key) => !textOf(candidate.node[key])),
      }))
      .sort((a, b) => a.missing.length - b.missing.length);
    const best = graded[0];
    if (!best) {
      const declared = jsonLd(page).unreadableNodes.find((node) =>
        typesOf(node).some((type) => ARTICLE_TYPES.includes(type)),
      );
      if (declared) {
        const type = articleType(declared);
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
        description: `The page is set as an <article>${headline ? ` ("${headline.slice(0, 60)}")` : ""} but has no Article, BlogPosting or NewsArticle in JSON-LD, microdata or RDFa${note ? `; ${note}` : "."}`,
        fix: `${note ? `${unreadableFix(page)} ` : ""}Add Article (or BlogPosting, NewsArticle) JSON-LD with the page's own facts: ${articleFacts(page)}.`,
        evidence: [headline ?? "", note],
      };
    }
    const found = `${best.type} ${best.syntax}`;
    const evidence = [best.type, best.syntax, ...best.missing];
    if (best.missing.length === 0) {
      return { status: "pass", description: `${found} with headline, author and datePublished.`, evidence };
    }
    const stray =
      best.syntax === "microdata" && best.element
        ? best.missing.flatMap((name) => strayProperty(page, best.element as Element, name) ?? [])
        : [];
    const note = unreadableNote(page, ARTICLE_TYPES);
    const them = best.missing.length === 1 ? "it" : "them";
    const date = best.missing.includes("datePublished") ? pageDateNote(page) : "";
    const headline = textOf(best.node.headline);
    return {
      status: "warn",
      description: `${found} lacks ${best.missing.join(", ")}${stray.length > 0 ? ` (the page's ${stray.join(" and ")} ${stray.length === 1 ? "stands" : "stand"} outside its itemscope, in another item)` : ""}.${note ? ` ${note}` : ""}`,
      fix:
        best.syntax === "JSON-LD"
          ? `Add ${best.missing.join(", ")} to the ${best.type} JSON-LD, as the page states ${them}${date}.`
          : note
            ? `${unreadableFix(page, `its ${best.type}`)} Its JSON-LD then gives engines the ${best.type} with ${best.missing.join(", ")}, as the page states ${them}.`
            : `Add ${best.type} JSON-LD with headline${headline ? ` "${headline.slice(0, 60)}"` : ""}, author (a Person with a name) and datePublished, as the page states them${date}: the syntax every engine reads (or add ${best.missing.join(", ")} inside the ${best.syntax} item${stray.length > 0 ? ` instead of beside it` : ""}).`,
      evidence,
    };
  },
});
