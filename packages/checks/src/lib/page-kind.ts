import type { Page } from "../page";
import { foldWhitespace } from "../page";
import { metaKeyed, metaNamed } from "../seo/head";
import { type JsonLdNode, jsonLd, textOf, typesOf } from "./jsonld";
import { perPage } from "./memo";

// NewsArticle and its subtypes in schema.org
export const NEWS_ARTICLE_TYPES = [
  ...["NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle", "BackgroundNewsArticle"],
  ...["OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle"],
];

// "News" in a publisher's name, in the languages the checks read
const NEWS_WORD = /\b(?:news|noticias|notícias|nachrichten|actualités|infos?|nieuws|notizie)\b|ニュース|新聞/iu;

const typed = (nodes: readonly JsonLdNode[], types: readonly string[]): JsonLdNode | undefined =>
  nodes.find((node) => typesOf(node).some((type) => types.includes(type)));

const metaContent = (meta: Element | null): string => foldWhitespace(meta?.getAttribute("content") ?? "");

/** The first of `types` that an `itemscope` of the page declares in its itemtype (microdata), or null. */
const microdataType = (page: Page, types: readonly string[]): string | null => {
  for (const item of page.doc.querySelectorAll("[itemtype]")) {
    for (const url of (item.getAttribute("itemtype") ?? "").split(/\s+/)) {
      const type = /^https?:\/\/schema\.org\/([A-Za-z]+)$/.exec(url)?.[1];
      if (type && types.includes(type)) return type;
    }
  }
  return null;
};

/**
 * Why the page is a news article, or null: a NewsArticle (or a subtype) in its JSON-LD, even in
 * a block that parses only once unwrapped from `<![CDATA[` (the page says so, though engines
 * cannot read it); a NewsArticle or NewsMediaOrganization in its microdata (`itemtype`), as
 * nytimes and msn declare theirs; a NewsMediaOrganization; Google News's `news_keywords` meta; or og:type
 * article from a publisher whose name says news ("BBC News"). A heuristic: a news site that
 * says none of these is not recognised.
 */
export const newsArticle = perPage((page: Page): string | null => {
  const { nodes, unreadableNodes } = jsonLd(page);
  const article = typed(nodes, NEWS_ARTICLE_TYPES);
  if (article) return `its JSON-LD declares a ${typesOf(article).find((type) => NEWS_ARTICLE_TYPES.includes(type))}`;
  const unreadable = typed(unreadableNodes, NEWS_ARTICLE_TYPES);
  if (unreadable) {
    return `its JSON-LD declares a ${typesOf(unreadable).find((type) => NEWS_ARTICLE_TYPES.includes(type))} in a block that does not parse`;
  }
  const microdata = microdataType(page, [...NEWS_ARTICLE_TYPES, "NewsMediaOrganization"]);
  if (microdata) return `its microdata declares a ${microdata}`;
  const publisher = typed([...nodes, ...unreadableNodes], ["NewsMediaOrganization"]);
  if (publisher)
    return `its publisher is a NewsMediaOrganization${textOf(publisher.name) ? ` ("${textOf(publisher.name)}")` : ""}`;
  const keywords = metaContent(metaNamed(page, "news_keywords"));
  if (keywords !== "") return `it has Google News's news_keywords meta ("${keywords.slice(0, 60)}")`;
  const ogType = metaContent(metaKeyed(page, "og:type")).toLowerCase();
  const siteName = metaContent(metaKeyed(page, "og:site_name")) || metaContent(metaNamed(page, "application-name"));
  if (ogType === "article" && NEWS_WORD.test(siteName)) return `it is an og:type article of "${siteName}"`;
  return null;
});

/** What the page says it is, for a description: `og:type "website"`, `JSON-LD WebPage, Organization`, or "". */
export const declaredKind = (page: Page): string => {
  const ogType = metaContent(metaKeyed(page, "og:type"));
  const types = [...new Set(jsonLd(page).nodes.flatMap(typesOf))].slice(0, 4);
  return [ogType ? `og:type "${ogType}"` : "", types.length > 0 ? `JSON-LD ${types.join(", ")}` : ""]
    .filter((part) => part !== "")
    .join(", ");
};
