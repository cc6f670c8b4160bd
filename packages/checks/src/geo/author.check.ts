import { defineCheck } from "../check";
import { type JsonLdNode, jsonLd } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import { foldWhitespace, type Page } from "../page";
import { anchors } from "../seo/anchors";
import { elementIndex, elementsNamed, isInert } from "../seo/dom";

export const isUrl = (text: string): boolean => /^(?:https?:)?\/\//i.test(text);

/** JSON-LD nodes by @id, so that `"author": {"@id": "#jane"}` finds the Person node that names her. */
export const nodesById = perPage((page: Page): ReadonlyMap<string, JsonLdNode> => {
  const byId = new Map<string, JsonLdNode>();
  for (const node of jsonLd(page).nodes) {
    const id = node["@id"];
    if (typeof id === "string" && typeof node.name === "string" && !byId.has(id)) byId.set(id, node);
  }
  return byId;
});

/** The name in an author value: a string that is not a URL, a node's name, or the name of the node an @id points at. */
export const authorNameOf = (value: unknown, byId: ReadonlyMap<string, JsonLdNode>): string | null => {
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") return null;
    const target = byId.get(text);
    if (target) return authorNameOf(target.name, byId);
    return isUrl(text) ? null : text;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const name = authorNameOf(item, byId);
      if (name) return name;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    const node = value as JsonLdNode;
    if (typeof node.name === "string" && node.name.trim() !== "") return node.name.trim();
    if (typeof node["@id"] === "string") {
      const target = byId.get(node["@id"]);
      if (target && target !== node) return authorNameOf(target.name, byId);
    }
  }
  return null;
};

const fromJsonLd = (page: Page): string | null => {
  const byId = nodesById(page);
  for (const node of jsonLd(page).nodes) {
    if (!("author" in node)) continue;
    const name = authorNameOf(node.author, byId);
    if (name) return `JSON-LD author "${name}"`;
  }
  return null;
};

// name= (or property=) values that carry a byline: the standard one and those of common publishing tools
const AUTHOR_META = new Set(["author", "article:author", "dc.creator", "byl", "sailthru.author", "parsely-author"]);

const fromMeta = (page: Page): string | null => {
  for (const meta of elementsNamed(page, "meta")) {
    const key = (meta.getAttribute("name") ?? meta.getAttribute("property") ?? "").trim().toLowerCase();
    const content = foldWhitespace(meta.getAttribute("content") ?? "");
    if (AUTHOR_META.has(key) && content !== "" && !isUrl(content)) return `<meta ${key}> "${content}"`;
  }
  return null;
};

const hasToken = (element: Element, attribute: string, token: string): boolean => {
  const value = element.getAttribute(attribute);
  return value?.toLowerCase().split(/\s+/).includes(token) ?? false;
};

const hasAuthorRel = (element: Element): boolean => hasToken(element, "rel", "author");

const fromRel = (page: Page): string | null => {
  const link = anchors(page).find((anchor) => anchor.text !== "" && hasAuthorRel(anchor.element));
  if (link) return `rel="author" link "${link.text}"`;
  // <link rel="author"> points at the author's page; humans.txt credits the site's makers, not the text's author
  const head = elementsNamed(page, "link").find((element) => {
    const href = (element.getAttribute("href") ?? "").trim();
    return hasAuthorRel(element) && href !== "" && !/humans\.txt$/i.test(href);
  });
  return head ? `<link rel="author" href="${(head.getAttribute("href") ?? "").trim()}">` : null;
};

const fromMicrodata = (page: Page): string | null => {
  for (const element of elementIndex(page).all) {
    if (!hasToken(element, "itemprop", "author") || isInert(element)) continue;
    const name =
      element.querySelector('[itemprop~="name"]')?.getAttribute("content") ??
      element.querySelector('[itemprop~="name"]')?.textContent ??
      element.getAttribute("content") ??
      element.textContent ??
      "";
    const text = foldWhitespace(name);
    if (text !== "" && !isUrl(text))
      return `itemprop="author" "${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`;
  }
  return null;
};

/**
 * A named author, structured or marked up: JSON-LD `author` with a name (a nested Person, or
 * an @id pointing at one; a bare URL is no name), an author meta tag, a rel="author" link with
 * text (or a `<link rel="author">` to the author's page), or microdata itemprop="author".
 * Bylines in plain text are not recognised: they cannot be told from other text reliably.
 * Every kind found is reported, the first of each.
 */
export const author = defineCheck({
  id: "author",
  category: "geo",
  severity: "warning",
  maxScore: 3,
  quick: true,
  title: "Page names its author",
  run: (page) => {
    const found = [fromJsonLd(page), fromMeta(page), fromRel(page), fromMicrodata(page)].filter(
      (signal): signal is string => signal !== null,
    );
    if (found.length > 0) return { status: "pass", description: `The page names its author: ${found.join("; ")}.` };
    return {
      status: "fail",
      description:
        'No author found: no JSON-LD author with a name, no <meta name="author">, no rel="author" link and no itemprop="author".',
      fix: 'Name the author: "author": {"@type": "Person", "name": "...", "url": "..."} in the page\'s JSON-LD, and a visible byline linking to their profile with rel="author".',
    };
  },
});
