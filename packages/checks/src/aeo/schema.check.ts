import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd, nodesOfType, textOf } from "../lib/jsonld";
import { elementsNamed } from "../seo/dom";

const hasSchemaContext = (value: unknown): boolean => {
  if (typeof value === "string") return /^https?:\/\/schema\.org\/?$/i.test(value.trim());
  if (Array.isArray(value)) return value.some(hasSchemaContext);
  if (typeof value === "object" && value !== null) return hasSchemaContext((value as JsonLdNode)["@vocab"]);
  return false;
};

/** The top-level items of a block: the block itself, its array members, or its @graph. */
const topLevel = (value: unknown): JsonLdNode[] => {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is JsonLdNode => typeof item === "object" && item !== null && !Array.isArray(item));
};

/**
 * JSON-LD that answer engines can read: at least one block, every block parses, and each
 * top-level item declares the schema.org `@context` (inherited by a @graph's members) and a
 * `@type` (on the item, or on each member of its @graph). Microdata and RDFa are not judged.
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
        fix: 'Describe the page in a <script type="application/ld+json"> block with "@context": "https://schema.org" and a @type (Article, Product, Organization, ...).',
      };
    }
    const problems: string[] = [];
    const types = new Set<string>();
    blocks.forEach((block, position) => {
      if (!block.ok) {
        problems.push(`block ${position + 1} does not parse (${block.error})`);
        return;
      }
      for (const item of topLevel(block.value)) {
        const graph = Array.isArray(item["@graph"]) ? topLevel(item["@graph"]) : null;
        if (!hasSchemaContext(item["@context"])) problems.push(`block ${position + 1} has no schema.org @context`);
        const typed = graph ? graph.filter((member) => member["@type"]) : item["@type"] ? [item] : [];
        if (typed.length === 0) problems.push(`block ${position + 1} has no @type`);
        for (const node of typed)
          for (const type of [node["@type"]].flat()) if (typeof type === "string") types.add(type);
      }
    });
    if (problems.length > 0) {
      return {
        status: "fail",
        description: `${blocks.length} JSON-LD block${blocks.length === 1 ? "" : "s"}, but ${problems.slice(0, 3).join("; ")}.`,
        fix: 'Fix the JSON-LD so every block is valid JSON with "@context": "https://schema.org" and a @type (validator.schema.org shows the errors).',
      };
    }
    return {
      status: "pass",
      description: `${blocks.length} valid JSON-LD block${blocks.length === 1 ? "" : "s"}: ${[...types].slice(0, 6).join(", ")}.`,
    };
  },
});

const ORGANIZATION_TYPES = [
  "Organization",
  "Corporation",
  "LocalBusiness",
  "NewsMediaOrganization",
  "EducationalOrganization",
  "OnlineStore",
  "Store",
  "Restaurant",
  "ProfessionalService",
  "MedicalOrganization",
  "NGO",
];

/** Organization (or LocalBusiness and their subtypes) with name, url and logo: who publishes the page. */
export const organizationSchema = defineCheck({
  id: "organization-schema",
  category: "aeo",
  severity: "warning",
  maxScore: 4,
  quick: true,
  title: "Publisher is described as an Organization",
  run: (page) => {
    const candidates = nodesOfType(page, ORGANIZATION_TYPES).map((node) => {
      const missing = ["name", "url", "logo"].filter((key) => !textOf(node[key]));
      return { name: textOf(node.name) ?? "(unnamed)", missing };
    });
    const best = candidates.sort((a, b) => a.missing.length - b.missing.length)[0];
    if (!best) {
      return {
        status: "fail",
        description: "No Organization or LocalBusiness JSON-LD on the page.",
        fix: 'Add Organization JSON-LD with "name", "url" and "logo" (on the home page at least; publisher of each Article).',
      };
    }
    if (best.missing.length === 0)
      return { status: "pass", description: `Organization "${best.name}" has name, url and logo.` };
    return {
      status: "warn",
      description: `Organization "${best.name}" lacks ${best.missing.join(", ")}.`,
      fix: `Add ${best.missing.join(", ")} to the Organization JSON-LD.`,
    };
  },
});

/** FAQPage whose mainEntity holds at least one Question with an acceptedAnswer. */
export const faqSchema = defineCheck({
  id: "faq-schema",
  category: "aeo",
  severity: "info",
  maxScore: 4,
  quick: false,
  title: "FAQ is marked up",
  run: (page) => {
    const faqs = nodesOfType(page, ["FAQPage"]);
    const answered = nodesOfType(page, ["Question"]).filter(
      (question) => textOf(question.name) && question.acceptedAnswer,
    );
    if (faqs.length > 0 && answered.length > 0) {
      return {
        status: "pass",
        description: `FAQPage markup with ${answered.length} answered question${answered.length === 1 ? "" : "s"}. Google ended FAQ rich results in 2026; the markup still helps answer extraction.`,
      };
    }
    return {
      status: "fail",
      description:
        faqs.length > 0 ? "FAQPage markup has no Question with an acceptedAnswer." : "No FAQPage markup on the page.",
      fix: "If the page answers common questions, mark them up as FAQPage → mainEntity: Question (name) → acceptedAnswer: Answer (text).",
    };
  },
});

const ARTICLE_TYPES = [
  "Article",
  "NewsArticle",
  "BlogPosting",
  "TechArticle",
  "ScholarlyArticle",
  "Report",
  "LiveBlogPosting",
];

/**
 * Article markup with headline, author and datePublished. Skipped when the page has neither an
 * `<article>` element nor any article-type markup: it is not an article.
 */
export const articleSchema = defineCheck({
  id: "article-schema",
  category: "aeo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Article is marked up",
  run: (page) => {
    const articles = nodesOfType(page, ARTICLE_TYPES);
    if (articles.length === 0) {
      if (elementsNamed(page, "article").length === 0) {
        return { status: "skip", description: "The page is not an article (no <article> element, no Article markup)." };
      }
      return {
        status: "fail",
        description: "The page has an <article> but no Article, BlogPosting or NewsArticle JSON-LD.",
        fix: "Add Article JSON-LD with headline, author (a Person with a name) and datePublished.",
      };
    }
    const graded = articles
      .map((node) => ({ node, missing: ["headline", "author", "datePublished"].filter((key) => !textOf(node[key])) }))
      .sort((a, b) => a.missing.length - b.missing.length);
    const best = graded[0] as (typeof graded)[number];
    const type = [best.node["@type"]].flat()[0];
    if (best.missing.length === 0) {
      return { status: "pass", description: `${String(type)} markup with headline, author and datePublished.` };
    }
    return {
      status: "warn",
      description: `${String(type)} markup lacks ${best.missing.join(", ")}.`,
      fix: `Add ${best.missing.join(", ")} to the ${String(type)} JSON-LD.`,
    };
  },
});

/** BreadcrumbList markup: where the page sits in the site. */
export const breadcrumbSchema = defineCheck({
  id: "breadcrumb-schema",
  category: "aeo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Breadcrumbs are marked up",
  run: (page) => {
    const lists = nodesOfType(page, ["BreadcrumbList"]);
    if (lists.length > 0) {
      const items = lists[0]?.itemListElement;
      const count = Array.isArray(items) ? items.length : 0;
      return { status: "pass", description: `BreadcrumbList markup with ${count} item${count === 1 ? "" : "s"}.` };
    }
    return {
      status: "fail",
      description: "No BreadcrumbList markup on the page.",
      fix: "Add BreadcrumbList JSON-LD listing the path from the home page to this page (ListItem with position, name, item).",
    };
  },
});

/** A `speakable` property (schema.org SpeakableSpecification): the parts fit for reading aloud. */
export const speakable = defineCheck({
  id: "speakable",
  category: "aeo",
  severity: "info",
  maxScore: 1,
  quick: false,
  title: "Speakable parts are marked",
  run: (page) => {
    const found = jsonLd(page).nodes.some((node) => node.speakable !== undefined);
    if (found) return { status: "pass", description: "The JSON-LD has a speakable property." };
    return {
      status: "fail",
      description: "No speakable property in the JSON-LD (a niche signal, read by few engines).",
      fix: 'Add "speakable": {"@type": "SpeakableSpecification", "cssSelector": [".summary"]} to the page\'s Article or WebPage JSON-LD.',
    };
  },
});
