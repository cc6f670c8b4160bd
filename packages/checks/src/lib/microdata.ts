import type { Page } from "../page";
import { isInert, readableText } from "./element";
import type { JsonLdNode } from "./jsonld";
import { perPage } from "./memo";
import { profiled } from "./profile";

/**
 * schema.org items written into the page's HTML: microdata (`itemscope`, `itemtype`,
 * `itemprop`) and RDFa (`typeof`, `property`, with a schema.org `vocab` or `schema:` prefix).
 * Google reads both, as it reads JSON-LD. Each item is shaped as a JSON-LD node (`@type`, and
 * each property a value or a list of them, a nested item a nested node), so that the checks'
 * field rules (lib/jsonld.ts `textOf`, `typesOf`) apply to every syntax alike.
 */
export type HtmlSyntax = "microdata" | "RDFa";
export type HtmlItem = { syntax: HtmlSyntax; node: JsonLdNode; element: Element };

const SCHEMA_URL = /^https?:\/\/schema\.org\/?/i;

// which attribute holds a property's value, by element (the microdata spec's table; RDFa reads the same)
const URL_VALUE: Record<string, string> = {
  a: "href",
  area: "href",
  link: "href",
  img: "src",
  audio: "src",
  video: "src",
  source: "src",
  track: "src",
  embed: "src",
  iframe: "src",
  object: "data",
};

type Syntax = {
  name: HtmlSyntax;
  /** the element's schema.org types when it starts an item, else null */
  types: (element: Element) => string[] | null;
  /** the property names an element gives its item */
  properties: (element: Element) => string[];
};

const splitList = (value: string | null): string[] => (value ?? "").trim().split(/\s+/).filter(Boolean);

const MICRODATA: Syntax = {
  name: "microdata",
  types: (element) =>
    element.hasAttribute("itemscope")
      ? splitList(element.getAttribute("itemtype"))
          .filter((url) => SCHEMA_URL.test(url))
          .map((url) => url.replace(SCHEMA_URL, ""))
      : null,
  properties: (element) => splitList(element.getAttribute("itemprop")).map((name) => name.replace(SCHEMA_URL, "")),
};

/** Whether RDFa terms under this element are schema.org's: a `vocab` of schema.org on it or an ancestor. */
const inSchemaVocab = (element: Element): boolean => {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const vocab = node.getAttribute("vocab");
    if (vocab !== null) return SCHEMA_URL.test(vocab);
  }
  return false;
};

/** An RDFa term as a schema.org name: "schema:Article", "https://schema.org/Article", or a bare term under a schema.org vocab. */
const rdfaTerm = (element: Element, term: string): string | null => {
  if (/^schema:/i.test(term)) return term.slice("schema:".length);
  if (SCHEMA_URL.test(term)) return term.replace(SCHEMA_URL, "");
  return /^[A-Za-z]+$/.test(term) && inSchemaVocab(element) ? term : null;
};

const RDFA: Syntax = {
  name: "RDFa",
  types: (element) =>
    element.hasAttribute("typeof")
      ? splitList(element.getAttribute("typeof")).flatMap((term) => rdfaTerm(element, term) ?? [])
      : null,
  properties: (element) => splitList(element.getAttribute("property")).flatMap((term) => rdfaTerm(element, term) ?? []),
};

/** A property's value: a nested item, else the attribute the element's kind holds it in, else its text. */
const propertyValue = (syntax: Syntax, element: Element): unknown => {
  if (syntax.types(element) !== null) return itemOf(syntax, element);
  const tag = element.localName;
  const content = element.getAttribute("content");
  if (content !== null) return content.trim();
  const attribute = URL_VALUE[tag];
  if (attribute) return (element.getAttribute(attribute) ?? "").trim();
  if (tag === "time") return (element.getAttribute("datetime") ?? readableText(element)).trim();
  if (tag === "data" || tag === "meter") return (element.getAttribute("value") ?? "").trim();
  return readableText(element);
};

/** An item as a JSON-LD node: its types and the properties of the elements in its scope (not those of nested items). */
const itemOf = (syntax: Syntax, root: Element): JsonLdNode => {
  const node: JsonLdNode = { "@type": syntax.types(root) ?? [] };
  const add = (name: string, value: unknown) => {
    const existing = node[name];
    node[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  };
  const stack: Element[] = [...root.children].reverse();
  // microdata's itemref brings elements elsewhere on the page into the item
  if (syntax.name === "microdata") {
    for (const id of splitList(root.getAttribute("itemref")).reverse()) {
      const referenced = root.ownerDocument.getElementById(id);
      if (referenced && !referenced.contains(root)) stack.push(referenced);
    }
  }
  while (stack.length > 0) {
    const element = stack.pop() as Element;
    const names = syntax.properties(element);
    if (names.length > 0) {
      const value = propertyValue(syntax, element);
      for (const name of names) add(name, value);
    }
    // a nested item's properties are its own
    if (syntax.types(element) !== null) continue;
    for (let index = element.children.length - 1; index >= 0; index--) {
      const child = element.children[index];
      if (child) stack.push(child);
    }
  }
  return node;
};

/** Every schema.org item of the rendered page in microdata or RDFa, nested ones included, in document order. */
export const htmlItems = perPage((page: Page): HtmlItem[] =>
  profiled("json-ld", () => {
    const items: HtmlItem[] = [];
    for (const element of page.doc.querySelectorAll("[itemscope], [typeof]")) {
      if (isInert(element)) continue;
      for (const syntax of [MICRODATA, RDFA]) {
        const types = syntax.types(element);
        if (types && types.length > 0) items.push({ syntax: syntax.name, node: itemOf(syntax, element), element });
      }
    }
    return items;
  }),
);
