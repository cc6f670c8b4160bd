import {
  ARTICLE_TYPES,
  clipAtWord,
  hasArticleElement,
  hasSchemaContext,
  htmlItems,
  isOrganization,
  type JsonLdNode,
  jsonLd,
  textOf,
  typesOf,
} from "@scan/checks";
import { faqPairs } from "./faq-pairs";
import type { PageFacts } from "./page-facts";
import { siteNameNotes } from "./page-metadata";

/** A JSON-LD block ready to paste, and what it fixes. */
export type JsonLdFix = {
  /** check ids this block makes pass (or improves) */
  addresses: string[];
  /** the @type of each node of the graph, in order */
  types: string[];
  data: { "@context": "https://schema.org"; "@graph": JsonLdNode[] };
  /** the `<script type="application/ld+json">` element */
  html: string;
  placement: string;
  /** what was left out and why, where values came from */
  notes: string[];
  /** per check this block is meant to fix, what the page does not state and its owner must supply */
  needs: Record<string, string>;
};

type Kind = "faq" | "article" | "breadcrumb" | "website" | "webpage" | "organization";

const WEBPAGE_TYPES = [
  ...["WebPage", "AboutPage", "CheckoutPage", "CollectionPage", "ContactPage", "ItemPage", "MedicalWebPage"],
  ...["ProfilePage", "QAPage", "RealEstateListing", "SearchResultsPage"],
];

// a node with several types is matched in this order: ["WebPage", "FAQPage"] is the FAQ
const kindOf = (node: JsonLdNode): Kind | null => {
  const types = typesOf(node);
  if (types.includes("FAQPage")) return "faq";
  if (types.some((type) => ARTICLE_TYPES.includes(type))) return "article";
  if (types.includes("BreadcrumbList")) return "breadcrumb";
  if (types.includes("WebSite")) return "website";
  if (types.some((type) => WEBPAGE_TYPES.includes(type))) return "webpage";
  if (isOrganization(node)) return "organization";
  return null;
};

const objectsIn = (value: unknown): JsonLdNode[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is JsonLdNode => typeof item === "object" && item !== null && !Array.isArray(item),
  );

/**
 * The top-level typed nodes of the page's own JSON-LD that can be carried into the new block:
 * those of blocks that parse (once unwrapped from CDATA or comment markup: lib/jsonld.ts) and declare
 * schema.org (or no @context at all, the usual mistake), @graph members included. Copies: the parsed JSON-LD is shared with the checks.
 */
const existingNodes = (facts: PageFacts, notes: string[]): JsonLdNode[] => {
  const nodes: JsonLdNode[] = [];
  jsonLd(facts.page).blocks.forEach((block, position) => {
    let value: unknown;
    if (block.ok) value = block.value;
    else {
      if (block.unwrapped === undefined) {
        notes.push(
          `JSON-LD block ${position + 1} of the page does not parse (${block.error}); it is not carried over: repair it by hand if it held data.`,
        );
        return;
      }
      value = block.unwrapped;
      notes.push(
        `JSON-LD block ${position + 1} of the page is wrapped in ${block.wrapper}, so no engine can read it: remove that block (or the wrapper around its JSON); this block carries its data over, unwrapped.`,
      );
    }
    for (const item of objectsIn(value)) {
      const context = item["@context"];
      if (context !== undefined && !hasSchemaContext(context)) {
        notes.push(`JSON-LD block ${position + 1} uses another vocabulary than schema.org; it is not carried over.`);
        continue;
      }
      const members = item["@graph"] === undefined ? [item] : objectsIn(item["@graph"]);
      for (const member of members) {
        if (typesOf(member).length === 0) continue;
        const copy = structuredClone(member);
        delete copy["@context"];
        nodes.push(copy);
      }
    }
  });
  return nodes;
};

const isBlank = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0);

/** Sets a property only where the page's own node has none: existing values always win. */
const fill = (node: JsonLdNode, key: string, value: unknown): void => {
  if (value === null || value === undefined || !isBlank(node[key])) return;
  node[key] = value;
};

/** A node with @type and @id first, then the page's own properties, then ours. */
const start = (base: JsonLdNode | undefined, type: string, id: string): JsonLdNode => {
  const { "@type": baseType, "@id": baseId, ...rest } = base ?? {};
  return { "@type": baseType ?? type, "@id": typeof baseId === "string" ? baseId : id, ...rest };
};

const ref = (node: JsonLdNode | null): { "@id": string } | null =>
  node && typeof node["@id"] === "string" ? { "@id": node["@id"] } : null;

const HEADLINE_MAX = 110;

const escapeScript = (json: string): string => json.replace(/</g, "\\u003c");

/**
 * JSON-LD for the page, built from what the page says and nothing else: Organization (when the
 * page names its site or publisher), WebSite, WebPage, and Article, FAQPage and BreadcrumbList
 * where the page supports them (an Article-type node, og:type article or an `<article>` that
 * stands for the page; two or more questions with answers in headings or `<details>`; a visible
 * breadcrumb trail). A property the page does not give is left out, never filled with a guess.
 * The page's own nodes of these types are the starting point (their values win and their @id is
 * kept), and its other nodes (Product, Event, ...) are carried over unchanged, so the block
 * replaces every JSON-LD block of the page. @ids are the page's URL or origin with a fragment.
 */
export const generateJsonLd = (facts: PageFacts): JsonLdFix => {
  const notes: string[] = [];
  const needs: Record<string, string> = {};
  const existing = existingNodes(facts, notes);
  const bases = new Map<Kind, JsonLdNode>();
  const carried: JsonLdNode[] = [];
  for (const node of existing) {
    const kind = kindOf(node);
    if (kind && !bases.has(kind)) bases.set(kind, node);
    else carried.push(node);
  }

  const orgBase = bases.get("organization");
  let organization: JsonLdNode | null = null;
  if (orgBase || facts.siteName) {
    organization = start(orgBase, "Organization", `${facts.home}#organization`);
    fill(organization, "name", facts.siteName?.value);
    if (isBlank(orgBase?.name)) notes.push(...siteNameNotes(facts.siteName, "The Organization's name"));
    fill(organization, "url", facts.home);
    fill(organization, "logo", facts.logo?.value);
    if (!facts.logo && isBlank(organization.logo)) {
      notes.push(
        "Organization has no logo: the page shows none that says it is one; add a square image of 112 px or more.",
      );
      needs["organization-schema"] =
        "a logo: the page shows no image that says it is the site's logo; add one (a square image of 112 px or more) to the Organization";
    }
  } else {
    notes.push(
      "No Organization: the page names no site or publisher (og:site_name, application-name or JSON-LD); add one with name, url and logo.",
    );
  }

  const website = start(bases.get("website"), "WebSite", `${facts.home}#website`);
  fill(website, "url", facts.home);
  fill(website, "name", facts.siteName?.value);
  fill(website, "inLanguage", facts.lang);
  fill(website, "publisher", ref(organization));

  const trail = facts.breadcrumbs;
  let breadcrumb: JsonLdNode | null = null;
  const breadcrumbBase = bases.get("breadcrumb");
  if (breadcrumbBase) breadcrumb = start(breadcrumbBase, "BreadcrumbList", `${facts.url}#breadcrumb`);
  else if (trail.length > 0) {
    breadcrumb = {
      "@type": "BreadcrumbList",
      "@id": `${facts.url}#breadcrumb`,
      itemListElement: trail.map((link, index) => ({
        "@type": "ListItem",
        position: index + 1,
        name: link.text,
        item: link.url,
      })),
    };
  }

  const webpage = start(bases.get("webpage"), "WebPage", facts.url);
  fill(webpage, "url", facts.url);
  fill(webpage, "name", facts.title);
  fill(webpage, "description", facts.description?.value);
  fill(webpage, "inLanguage", facts.lang);
  fill(webpage, "isPartOf", ref(website));
  fill(webpage, "breadcrumb", ref(breadcrumb));

  const articleBase = bases.get("article");
  const headline = facts.ogTitle ?? facts.h1 ?? facts.title;
  const unstated = [facts.author ? null : "an author", facts.published ? null : "a publication date"].filter(
    (part): part is string => part !== null,
  );
  // an Article the checks already ask for (the page's own, in JSON-LD, microdata or RDFa, or an
  // <article> that stands for the page) is worth adding even partial; one they do not ask for is
  // added only complete, since a partial one would turn article-schema from not applicable into a warning
  const asked =
    articleBase !== undefined ||
    hasArticleElement(facts.page) ||
    htmlItems(facts.page).some((item) => typesOf(item.node).some((type) => ARTICLE_TYPES.includes(type)));
  let article: JsonLdNode | null = null;
  if (!asked && facts.ogType === "article" && unstated.length > 0) {
    notes.push(
      `No Article: the page is an og:type article but states no ${unstated.map((part) => part.replace(/^an? /, "")).join(" and no ")} in its markup or byline; an Article without them would be incomplete.`,
    );
    needs["article-schema"] =
      `${unstated.join(" and ")} shown on the page, which it does not state; then an Article can carry them`;
  }
  if (asked || (facts.ogType === "article" && unstated.length === 0)) {
    article = start(articleBase, "Article", `${facts.url}#article`);
    fill(article, "headline", headline ? clipAtWord(headline, HEADLINE_MAX) : null);
    fill(article, "description", facts.description?.value);
    if (facts.author) {
      fill(article, "author", {
        "@type": "Person",
        name: facts.author.name,
        ...(facts.author.url ? { url: facts.author.url } : {}),
      });
    }
    fill(article, "datePublished", facts.published?.value);
    fill(article, "dateModified", facts.modified?.value);
    fill(article, "image", facts.image);
    fill(article, "inLanguage", facts.lang);
    fill(article, "publisher", ref(organization));
    fill(article, "mainEntityOfPage", ref(webpage));
    const missing = ["author", "datePublished"].filter((key) => isBlank(article?.[key]));
    if (missing.length > 0) {
      notes.push(
        `Article lacks ${missing.join(" and ")}: the page does not state ${missing.length === 1 ? "it" : "them"} in its markup or byline.`,
      );
      needs["article-schema"] =
        `${missing.map((key) => (key === "author" ? "an author" : "a publication date")).join(" and ")} shown on the page, which it does not state; then add ${missing.join(" and ")} to the Article`;
    }
  }

  let faq: JsonLdNode | null = null;
  const faqBase = bases.get("faq");
  const visiblePairs = faqPairs(facts.page).filter((pair) => pair.source !== "json-ld");
  if (faqBase) faq = start(faqBase, "FAQPage", `${facts.url}#faq`);
  else if (visiblePairs.length >= 2) {
    faq = {
      "@type": "FAQPage",
      "@id": `${facts.url}#faq`,
      mainEntity: visiblePairs.map((pair) => ({
        "@type": "Question",
        name: pair.question,
        acceptedAnswer: { "@type": "Answer", text: pair.answer },
      })),
    };
  }

  const graph = [organization, website, webpage, article, faq, breadcrumb, ...carried].filter(
    (node): node is JsonLdNode => node !== null,
  );
  const data = { "@context": "https://schema.org" as const, "@graph": graph };
  const addresses = ["structured-data"];
  if (organization) addresses.push("organization-schema");
  if (article) addresses.push("article-schema");
  if (article && textOf(article.author)) addresses.push("author");
  if (article && (textOf(article.datePublished) || textOf(article.dateModified))) addresses.push("publish-date");
  if (faq) addresses.push("faq-schema");
  if (breadcrumb) addresses.push("breadcrumb-schema");
  if (carried.length > 0) {
    notes.push(
      `Carried over unchanged from the page: ${carried.length} other node${carried.length === 1 ? "" : "s"} (${[
        ...new Set(carried.flatMap(typesOf)),
      ]
        .slice(0, 5)
        .join(", ")}).`,
    );
  }
  return {
    addresses,
    types: graph.map((node) => typesOf(node).join("/")),
    data,
    html: `<script type="application/ld+json">\n${escapeScript(JSON.stringify(data, null, 2))}\n</script>`,
    placement:
      "Put this element in the page's <head> in place of its existing application/ld+json scripts: it carries their data over.",
    notes,
    needs,
  };
};
