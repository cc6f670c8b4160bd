import type { Page } from "../page";
import { perPage } from "./memo";
import { profiled } from "./profile";

export type JsonLdNode = Record<string, unknown>;

/**
 * One `<script type="application/ld+json">` block of the rendered DOM (`index` among the
 * page's scripts with a type). A block that does not parse says why, and, when markup wrapped
 * around valid JSON is the only fault (`<![CDATA[ ... ]]>`, `<!-- ... -->`), what it holds once
 * unwrapped: what the page means to say, though no engine reads it.
 */
export type JsonLdBlock =
  | { ok: true; index: number; value: unknown }
  | { ok: false; index: number; error: string; wrapper: "<![CDATA[" | "<!--" | null; unwrapped?: unknown };

export type JsonLd = {
  blocks: readonly JsonLdBlock[];
  /** every object in every block that parsed, nested ones and @graph members included */
  nodes: readonly JsonLdNode[];
  /** the same of the blocks that parse only once unwrapped: declared, but unreadable to engines */
  unreadableNodes: readonly JsonLdNode[];
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

// CMSs wrap JSON-LD in CDATA sections or HTML comments (with or without // before them) for
// XHTML-era parsers; JSON parsers, search engines' included, do not strip them
const OPENING = /^\s*(?:\/\/\s*)?(<!\[CDATA\[|<!--)/;
const WRAPPERS = /^\s*(?:\/\/\s*)?(?:<!\[CDATA\[|<!--)|(?:\/\/\s*)?(?:\]\]>|-->)\s*$/g;

const failed = (index: number, text: string, error: Error): JsonLdBlock => {
  const opening = OPENING.exec(text)?.[1];
  const wrapper = opening === "<![CDATA[" || opening === "<!--" ? opening : null;
  if (!wrapper) return { ok: false, index, error: error.message, wrapper };
  try {
    return { ok: false, index, error: error.message, wrapper, unwrapped: JSON.parse(text.replace(WRAPPERS, "")) };
  } catch {
    return { ok: false, index, error: error.message, wrapper };
  }
};

export const jsonLd = perPage(
  (page: Page): JsonLd =>
    profiled("json-ld", () => {
      const blocks: JsonLdBlock[] = [];
      const nodes: JsonLdNode[] = [];
      const unreadableNodes: JsonLdNode[] = [];
      page.doc.querySelectorAll("script[type]").forEach((script, index) => {
        const type = (script.getAttribute("type") ?? "").split(";")[0]?.trim().toLowerCase();
        if (type !== "application/ld+json") return;
        const text = script.textContent ?? "";
        try {
          const value: unknown = JSON.parse(text);
          blocks.push({ ok: true, index, value });
          collect(value, nodes);
        } catch (error) {
          const block = failed(index, text, error as Error);
          blocks.push(block);
          if (!block.ok && block.unwrapped !== undefined) collect(block.unwrapped, unreadableNodes);
        }
      });
      return { blocks, nodes, unreadableNodes };
    }),
);

/** The position (1-based) of a block among the page's JSON-LD blocks: "block 2" in descriptions. */
const positionOf = (page: Page, block: JsonLdBlock): number => jsonLd(page).blocks.indexOf(block) + 1;

/**
 * A sentence on the page's JSON-LD blocks that do not parse, for the checks that read JSON-LD:
 * which block, why, and the types it declares when a wrapper is the only fault ("JSON-LD block
 * 1 declares NewsArticle, Organization but does not parse: it is wrapped in <![CDATA[, which no
 * JSON parser strips"). With `types`, only blocks that declare one of them once unwrapped, or
 * whose content cannot be read at all. "" when every block parses.
 */
export const unreadableNote = (page: Page, types?: readonly string[]): string => {
  const notes: string[] = [];
  for (const block of jsonLd(page).blocks) {
    if (block.ok) continue;
    const found: JsonLdNode[] = [];
    if (block.unwrapped !== undefined) collect(block.unwrapped, found);
    // "@id" and the like are keywords of a @context's term definitions, not types
    const declared = [...new Set(found.flatMap(typesOf))].filter((type) => !type.startsWith("@"));
    if (types && block.unwrapped !== undefined && !declared.some((type) => types.includes(type))) continue;
    const name = `JSON-LD block ${positionOf(page, block)}`;
    if (block.wrapper) {
      const what = declared.length > 0 ? ` declares ${declared.slice(0, 4).join(", ")} but` : "";
      notes.push(
        `${name}${what} does not parse: it is wrapped in ${block.wrapper}, which JSON parsers, search engines' included, do not strip`,
      );
    } else {
      notes.push(`${name} does not parse (${block.error}), so what it holds is unknown`);
    }
  }
  return notes.length > 0 ? `${notes.join("; ")}.` : "";
};

/**
 * A fix for the blocks `unreadableNote` names: remove the wrapper, or repair the JSON; `what`
 * names what the block holds for the check asking ('its Organization "Kotaku"'). "" when every
 * block parses.
 */
export const unreadableFix = (page: Page, what?: string): string => {
  const broken = jsonLd(page).blocks.filter((block) => !block.ok);
  if (broken.length === 0) return "";
  const wrapped = broken.filter((block) => !block.ok && block.wrapper);
  const names = (list: readonly JsonLdBlock[]) => list.map((block) => `block ${positionOf(page, block)}`).join(", ");
  const parts = [
    wrapped.length > 0
      ? `Remove the <![CDATA[ ... ]]> (or <!-- ... -->) wrapper around JSON-LD ${names(wrapped)}${what ? ` (${what})` : ""}, leaving bare JSON inside the <script>`
      : "",
    broken.length > wrapped.length
      ? `repair the JSON of ${names(broken.filter((block) => !block.ok && !block.wrapper))} (validator.schema.org shows where it breaks)`
      : "",
  ].filter((part) => part !== "");
  const sentence = parts.join("; ");
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
};

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
