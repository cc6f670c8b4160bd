import { defineCheck } from "../check";
import { nodesOfType, textOf } from "../lib/jsonld";
import type { Page } from "../page";
import { anchors } from "../seo/anchors";
import { elementsNamed } from "../seo/dom";

const ENTITY_TYPES = [
  "Organization",
  "Corporation",
  "LocalBusiness",
  "NewsMediaOrganization",
  "EducationalOrganization",
  "Person",
];

const urlsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (v): v is string => typeof v === "string" && /^https?:\/\//i.test(v.trim()),
  );

/**
 * Organization or Person JSON-LD with `sameAs` links to profiles elsewhere (Wikipedia,
 * Wikidata, LinkedIn, ...): they tie the page's entity to what answer engines already know.
 * The node with the most distinct sameAs URLs is judged.
 */
export const entitySameas = defineCheck({
  id: "entity-sameas",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Entity is linked to its profiles",
  run: (page) => {
    const best = nodesOfType(page, ENTITY_TYPES)
      .map((node) => ({ name: textOf(node.name) ?? "(unnamed)", links: [...new Set(urlsOf(node.sameAs))] }))
      .sort((a, b) => b.links.length - a.links.length)[0];
    if (best && best.links.length >= 2) {
      return { status: "pass", description: `${best.name} has ${best.links.length} sameAs profiles in JSON-LD.` };
    }
    return {
      status: best?.links.length === 1 ? "warn" : "fail",
      description: best
        ? `${best.name} has ${best.links.length === 1 ? "one sameAs profile" : "no sameAs profiles"} in JSON-LD.`
        : "No Organization or Person JSON-LD on the page.",
      fix: 'Add "sameAs": ["https://en.wikipedia.org/wiki/…", "https://www.linkedin.com/company/…", …] to your Organization or Person JSON-LD.',
    };
  },
});

const AUTHOR_META = ["author", "article:author", "dc.creator", "byl", "sailthru.author", "parsely-author"];

const authorName = (page: Page): string | null => {
  for (const node of nodesOfType(page, [
    "Article",
    "NewsArticle",
    "BlogPosting",
    "WebPage",
    "Report",
    "ScholarlyArticle",
    "TechArticle",
    "CreativeWork",
    "Recipe",
    "Review",
    "VideoObject",
  ])) {
    const name = textOf(node.author);
    if (name && !/^https?:\/\//.test(name)) return `JSON-LD author "${name}"`;
  }
  for (const meta of elementsNamed(page, "meta")) {
    const key = (meta.getAttribute("name") ?? meta.getAttribute("property") ?? "").trim().toLowerCase();
    const content = (meta.getAttribute("content") ?? "").trim();
    if (AUTHOR_META.includes(key) && content && !/^https?:\/\//.test(content)) return `<meta ${key}> "${content}"`;
  }
  const byRel = anchors(page).find(
    (anchor) => /(?:^|\s)author(?:\s|$)/i.test(anchor.element.getAttribute("rel") ?? "") && anchor.text,
  );
  if (byRel) return `rel="author" link "${byRel.text}"`;
  for (const element of page.doc.querySelectorAll('[itemprop~="author"]')) {
    const text = (
      element.querySelector('[itemprop="name"]')?.textContent ??
      element.getAttribute("content") ??
      element.textContent ??
      ""
    ).trim();
    if (text) return `itemprop="author" "${text.replace(/\s+/g, " ").slice(0, 60)}"`;
  }
  return null;
};

/**
 * A named author, visible or structured: JSON-LD author with a name (not a bare URL), an
 * author meta tag, a rel="author" link with text, or microdata itemprop="author". Bylines in
 * plain text are not recognised: an engine cannot tell them from other text either.
 */
export const author = defineCheck({
  id: "author",
  category: "geo",
  severity: "warning",
  maxScore: 3,
  quick: true,
  title: "Page names its author",
  run: (page) => {
    const found = authorName(page);
    if (found) return { status: "pass", description: `The page names its author: ${found}.` };
    return {
      status: "fail",
      description: "No author found (no JSON-LD author, author meta, rel=author link or itemprop=author).",
      fix: 'Name the author: "author": {"@type": "Person", "name": "…"} in JSON-LD and a visible byline with rel="author" linking to their profile.',
    };
  },
});

const ABOUT =
  /\b(?:about|about[- ]us|who[- ]we[- ]are|our[- ]story|company|team|über[- ]uns|a[- ]propos|à[- ]propos|quienes[- ]somos|sobre|chi[- ]siamo|over[- ]ons)\b/i;
const CONTACT = /\b(?:contact|contact[- ]us|kontakt|contacto|contatti|contato|impressum|get[- ]in[- ]touch)\b/i;

/**
 * Links to an about page and a contact page, judged by link text or URL path in any common
 * language; the signals of a real, accountable publisher (Google's E-E-A-T guidance).
 */
export const trustPages = defineCheck({
  id: "trust-pages",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Links to about and contact pages",
  run: (page) => {
    let about = false;
    let contact = false;
    for (const anchor of anchors(page)) {
      if (!anchor.href) continue;
      const label = `${anchor.text} ${anchor.href.pathname.replace(/[/_.-]+/g, " ")}`;
      if (anchor.href.protocol === "mailto:") contact = true;
      about ||= ABOUT.test(label);
      contact ||= CONTACT.test(label);
      if (about && contact) break;
    }
    if (about && contact) return { status: "pass", description: "The page links to an about page and a contact page." };
    const has = about ? "an about page" : contact ? "a contact page" : null;
    return {
      status: has ? "warn" : "fail",
      description: has
        ? `The page links to ${has} but not to ${about ? "a contact page" : "an about page"}.`
        : "The page links to neither an about page nor a contact page.",
      fix: "Link your About and Contact pages from every page (the footer is the usual place).",
    };
  },
});
