import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd, typesOf, unreadableFix } from "../lib/jsonld";
import { siteNameOf } from "../lib/organization";
import { headlineOf, withoutHash } from "../lib/own-content";
import { jsonString } from "../lib/text";
import type { Page } from "../page";
import { articleFacts, hasArticleElement } from "./article-schema.check";

const SCHEMA_ORG = /^https?:\/\/schema\.org(?:\/.*)?$/i;

/** A `@context` naming schema.org: the URL (with or without slash, or its context document), in a list, or as `@vocab`. */
export const hasSchemaContext = (value: unknown): boolean => {
  if (typeof value === "string") return SCHEMA_ORG.test(value.trim());
  if (Array.isArray(value)) return value.some(hasSchemaContext);
  if (typeof value === "object" && value !== null) return hasSchemaContext((value as JsonLdNode)["@vocab"]);
  return false;
};

const objectsIn = (value: unknown): JsonLdNode[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is JsonLdNode => typeof item === "object" && item !== null && !Array.isArray(item),
  );

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** The types a block declares once unwrapped (top-level items and @graph members). */
const unwrappedTypes = (value: unknown): string[] => [
  ...new Set(
    objectsIn(value)
      .flatMap((item) => (item["@graph"] === undefined ? [item] : objectsIn(item["@graph"])))
      .flatMap(typesOf),
  ),
];

/**
 * JSON-LD that answer engines can read: at least one block, every block parses as JSON, and
 * every top-level item (a block may hold an array) declares the schema.org `@context` and a
 * `@type`, on itself or on the members of its `@graph`, which inherit its context. A block that
 * is valid JSON but not an object at all counts as having no @type. Microdata and RDFa are not
 * judged: Google reads them, but JSON-LD is what it recommends and what the other checks read.
 */
export const structuredData = defineCheck({
  id: "structured-data",
  category: "aeo",
  severity: "warning",
  maxScore: 6,
  quick: true,
  title: "Page has valid JSON-LD",
  run: (page) => {
    const { blocks } = jsonLd(page);
    if (blocks.length === 0) {
      return {
        status: "fail",
        description: "The page has no JSON-LD structured data.",
        fix: firstBlockFix(page),
        evidence: [],
      };
    }
    const problems: string[] = [];
    const types = new Set<string>();
    blocks.forEach((block, position) => {
      const name = `block ${position + 1}`;
      if (!block.ok) {
        // CDATA sections and HTML comments are not JSON, and JSON-LD parsers do not strip them
        const declared = unwrappedTypes(block.unwrapped);
        problems.push(
          block.wrapper
            ? `${name}${declared.length > 0 ? ` (${declared.slice(0, 4).join(", ")})` : ""} is present but unreadable: ${block.wrapper} wraps it, and JSON parsers do not strip it`
            : `${name} is not valid JSON (${block.error})`,
        );
        return;
      }
      const items = objectsIn(block.value);
      if (items.length === 0) problems.push(`${name} holds no object with a @type`);
      for (const item of items) {
        if (!hasSchemaContext(item["@context"])) problems.push(`${name} has no schema.org @context`);
        const graph = item["@graph"] === undefined ? null : objectsIn(item["@graph"]);
        const typed = (graph ?? [item]).filter((node) => typesOf(node).length > 0);
        if (typed.length === 0) problems.push(`${name} has no @type`);
        for (const node of typed) for (const type of typesOf(node)) types.add(type);
      }
    });
    if (problems.length > 0) {
      const unique = [...new Set(problems)];
      const declared = [...new Set(blocks.flatMap((block) => (block.ok ? [] : unwrappedTypes(block.unwrapped))))];
      const unparsed = unreadableFix(page, declared.length > 0 ? `its ${declared.slice(0, 4).join(", ")}` : undefined);
      const rest = unique.length > blocks.filter((block) => !block.ok).length;
      return {
        status: "fail",
        description: `${plural(blocks.length, "JSON-LD block")}, but ${unique.slice(0, 3).join("; ")}${unique.length > 3 ? ` (and ${unique.length - 3} more)` : ""}.`,
        fix: [
          unparsed,
          rest || !unparsed
            ? 'Give every JSON-LD block "@context": "https://schema.org" and a @type; the Schema Markup Validator (validator.schema.org) shows the errors.'
            : "",
        ]
          .filter((part) => part !== "")
          .join(" "),
        evidence: unique,
      };
    }
    const listed = [...types];
    return {
      status: "pass",
      description: `${plural(blocks.length, "valid JSON-LD block")} with schema.org types ${listed.slice(0, 6).join(", ")}${listed.length > 6 ? ", ..." : ""}.`,
      evidence: listed,
    };
  },
});

/**
 * The first block to add, with the page's own facts: an Article with its headline, byline and
 * date when the page is set as an article, else a WebPage with its headline and URL; its site as
 * the publisher when the page names it.
 */
const firstBlockFix = (page: Page): string => {
  const site = siteNameOf(page);
  const publisher = site
    ? `, and "publisher" {"@type": "Organization", "name": ${jsonString(site.value)}} (from ${site.source})`
    : "";
  if (hasArticleElement(page))
    return `Describe the page in a <script type="application/ld+json"> block with "@context": "https://schema.org", "@type": "Article" (or NewsArticle, BlogPosting), ${articleFacts(page)}${publisher}.`;
  const headline = headlineOf(page);
  const url = withoutHash(page.finalUrl);
  return `Describe the page in a <script type="application/ld+json"> block with "@context": "https://schema.org", "@type": "WebPage" (or the type it is: Article, Product, ...), ${headline ? `"name": ${jsonString(headline.slice(0, 110))}` : `"name" (the page has no heading or title, so its owner must supply it)`}, "url": "${url}"${publisher}.`;
};
