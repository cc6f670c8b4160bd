import type { Page } from "../page";
import { perPage } from "./memo";

export type JsonLdNode = Record<string, unknown>;

/** One `<script type="application/ld+json">` block of the rendered DOM. */
export type JsonLdBlock = { ok: true; index: number; value: unknown } | { ok: false; index: number; error: string };

export type JsonLd = {
  blocks: readonly JsonLdBlock[];
  /** every object in every block that parsed, nested ones and @graph members included */
  nodes: readonly JsonLdNode[];
};

const isNode = (value: unknown): value is JsonLdNode =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const collect = (value: unknown, into: JsonLdNode[]): void => {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, into);
    return;
  }
  if (!isNode(value)) return;
  into.push(value);
  for (const child of Object.values(value)) collect(child, into);
};

export const jsonLd = perPage((page: Page): JsonLd => {
  const blocks: JsonLdBlock[] = [];
  const nodes: JsonLdNode[] = [];
  page.doc.querySelectorAll("script[type]").forEach((script, index) => {
    const type = (script.getAttribute("type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/ld+json") return;
    try {
      const value: unknown = JSON.parse(script.textContent ?? "");
      blocks.push({ ok: true, index, value });
      collect(value, nodes);
    } catch (error) {
      blocks.push({ ok: false, index, error: (error as Error).message });
    }
  });
  return { blocks, nodes };
});

/** A node's @type values without a schema.org prefix: "schema:Article" and "https://schema.org/Article" are "Article". */
export const typesOf = (node: JsonLdNode): string[] => {
  const raw = node["@type"];
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((type): type is string => typeof type === "string")
    .map((type) => type.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, ""));
};

/** The nodes whose @type is one of these (exact schema.org names). */
export const nodesOfType = (page: Page, types: readonly string[]): JsonLdNode[] =>
  jsonLd(page).nodes.filter((node) => typesOf(node).some((type) => types.includes(type)));

/** A property as text: a string, or the `name`/`@id` of a nested node, or the first of a list. */
export const textOf = (value: unknown): string | null => {
  if (typeof value === "string") return value.trim() || null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = textOf(item);
      if (text) return text;
    }
    return null;
  }
  if (isNode(value)) return textOf(value.name) ?? textOf(value["@id"]) ?? textOf(value.url);
  return null;
};
