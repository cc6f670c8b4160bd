import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { type JsonLdNode, jsonLd, unreadableFix, unreadableNote } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import { judgesContent } from "../lib/placeholder";
import { clip } from "../lib/text";
import { foldWhitespace, type Page } from "../page";
import { anchors } from "../seo/anchors";
import { elementIndex, elementsNamed, isInert } from "../seo/dom";
import { visibleByline } from "./byline";

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
const AUTHOR_META = new Set([
  "author",
  "article:author",
  "og:article:author",
  "dc.creator",
  "byl",
  "sailthru.author",
  "parsely-author",
]);
// Open Graph's article:author is, by its definition, an array of profile URLs
const PROFILE_META = new Set(["article:author", "og:article:author"]);

const fromMeta = (page: Page): string | null => {
  const profiles: string[] = [];
  for (const meta of elementsNamed(page, "meta")) {
    const key = (meta.getAttribute("name") ?? meta.getAttribute("property") ?? "").trim().toLowerCase();
    const content = foldWhitespace(meta.getAttribute("content") ?? "");
    if (!AUTHOR_META.has(key) || content === "") continue;
    if (!isUrl(content)) return `<meta ${key}> "${clip(content, 60)}"`;
    if (PROFILE_META.has(key)) profiles.push(content);
  }
  const [first] = profiles;
  if (!first) return null;
  return `<meta property="article:author"> profile ${first}${profiles.length > 1 ? ` and ${profiles.length - 1} more` : ""}`;
};

const hasToken = (element: Element, attribute: string, token: string): boolean => {
  const value = element.getAttribute(attribute);
  return value?.toLowerCase().split(/\s+/).includes(token) ?? false;
};

const hasAuthorRel = (element: Element): boolean => hasToken(element, "rel", "author");

const fromRel = (page: Page): string | null => {
  const link = anchors(page).find((anchor) => anchor.text !== "" && hasAuthorRel(anchor.element));
  if (link) return `rel="author" link "${clip(link.text, 60)}"`;
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
    const named = element.querySelector('[itemprop~="name"]');
    const name =
      named?.getAttribute("content") ??
      (named ? readableText(named) : null) ??
      element.getAttribute("content") ??
      readableText(element);
    const text = foldWhitespace(name);
    if (text !== "" && !isUrl(text)) return `itemprop="author" "${clip(text, 60)}"`;
  }
  return null;
};

const fromByline = (page: Page): string | null => {
  const byline = visibleByline(page);
  if (!byline) return null;
  return `the byline "${clip(byline.line, 80)}"${byline.where === "site" ? " beside the content (the site's author)" : ""}`;
};

/** An author named only in a JSON-LD block that does not parse: the page means to name one. */
const unreadableAuthor = (page: Page): string | null => {
  const byId = new Map<string, JsonLdNode>();
  for (const node of jsonLd(page).unreadableNodes) {
    if (typeof node["@id"] === "string" && typeof node.name === "string") byId.set(node["@id"], node);
  }
  for (const node of jsonLd(page).unreadableNodes) {
    if (!("author" in node)) continue;
    const name = authorNameOf(node.author, byId);
    if (name) return name;
  }
  return null;
};

/**
 * Reads the page's author, visible or structured: a byline in the rendered page's text in the
 * page's language or English (byline.ts: "By …", "Posted by …", "Written by …", "Par …", "Por
 * …", "Von …", "Door …", "著者：…", outside navigation, sidebars, widgets and comments),
 * JSON-LD `author` with a name (a nested Person, or an @id pointing at one; a bare URL is no
 * name), an author meta tag, Open Graph `article:author` (a name, or the author's profile URL
 * as Open Graph defines it), a rel="author" link with text (or a `<link rel="author">` to the
 * author's page), or microdata itemprop="author". Every kind found is reported, the first of
 * each. An author named only in a JSON-LD block that does not parse is reported as unreadable.
 */
export const author = judgesContent(
  defineCheck({
    id: "author",
    category: "geo",
    severity: "warning",
    maxScore: 3,
    quick: true,
    title: "Page names its author",
    run: (page) => {
      const found = [fromByline(page), fromJsonLd(page), fromMeta(page), fromRel(page), fromMicrodata(page)].filter(
        (signal): signal is string => signal !== null,
      );
      if (found.length > 0) {
        return { status: "pass", description: `The page names its author: ${found.join("; ")}.`, evidence: found };
      }
      const unreadable = unreadableAuthor(page);
      if (unreadable) {
        return {
          status: "fail",
          description: `The page names its author, "${unreadable}", only in JSON-LD that engines cannot read: ${unreadableNote(page)} It shows no byline.`,
          fix: `${unreadableFix(page)} Show the byline "By ${unreadable}" on the page too, linking to their profile with rel="author".`,
          evidence: [unreadable],
        };
      }
      const heading = page.main.heading ? readableText(page.main.heading) : "";
      return {
        status: "fail",
        description: `No author found: no byline ("By …", "Posted by …" or the like${heading ? ` near the h1 "${clip(heading, 60)}"` : ""}), no JSON-LD author with a name, no author meta or article:author, no rel="author" link and no itemprop="author".`,
        fix: `The page names no author, so its owner must supply the writer's name: show it as a byline${heading ? ` under the h1 "${clip(heading, 60)}"` : ""} linking to their profile with rel="author", and give the same name and profile URL as "author": {"@type": "Person"} in the page's JSON-LD.`,
        evidence: [heading],
      };
    },
  }),
);
