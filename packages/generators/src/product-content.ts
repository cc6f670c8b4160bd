import {
  clipAtWord,
  countWords,
  foldWhitespace,
  type JsonLdNode,
  nodesOfType,
  parseDocument,
  sentencesOf,
  textOf,
} from "@scan/checks";
import { contentBlocks } from "./content-blocks";
import type { PageFacts } from "./page-facts";
import type { TopicMatcher } from "./topic";

export type ProductContent = {
  contentType: "product";
  title: string;
  name: string;
  description: string | null;
  features: string[];
  /** facts from the Product JSON-LD: brand, identifiers, price, availability, rating */
  details: Array<{ label: string; value: string }>;
  sections: Array<{ heading: string; summary: string }>;
  markdown: string;
  notes: string[];
};

const PRODUCT_TYPES = [
  "Product",
  "ProductGroup",
  "ProductModel",
  "IndividualProduct",
  "SomeProducts",
  "Vehicle",
  "Car",
];
const FEATURE_HEADING = /feature|spec|highlight|benefit|detail|include|in the box|what you get|key/i;
const MAX_FEATURES = 12;
const MAX_SECTIONS = 6;

/** A JSON-LD value as display text: strings (markup stripped), numbers, or a node's name. */
const plain = (value: unknown): string | null => {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const text = textOf(value);
  if (!text) return null;
  const folded = /[<&]/.test(text)
    ? foldWhitespace(parseDocument(`<body>${text}</body>`).body?.textContent ?? "")
    : foldWhitespace(text);
  return folded === "" ? null : folded;
};

const first = (value: unknown): JsonLdNode | null => {
  const list = Array.isArray(value) ? value : [value];
  const node = list.find((item) => typeof item === "object" && item !== null && !Array.isArray(item));
  return (node as JsonLdNode | undefined) ?? null;
};

/** Brand, identifiers, price, availability and rating, in that order, where the Product data states them. */
const detailsOf = (product: JsonLdNode): Array<{ label: string; value: string }> => {
  const offer = first(product.offers);
  const rating = first(product.aggregateRating);
  const price =
    plain(offer?.price) ??
    (plain(offer?.lowPrice) && plain(offer?.highPrice)
      ? `${plain(offer?.lowPrice)} to ${plain(offer?.highPrice)}`
      : null);
  const availability = plain(offer?.availability)?.replace(/^https?:\/\/schema\.org\//i, "");
  const rows: Array<[string, string | null | undefined]> = [
    ["Brand", plain(product.brand)],
    ["Model", plain(product.model)],
    ["SKU", plain(product.sku)],
    ["MPN", plain(product.mpn)],
    [
      "GTIN",
      plain(product.gtin13) ??
        plain(product.gtin) ??
        plain(product.gtin12) ??
        plain(product.gtin14) ??
        plain(product.gtin8),
    ],
    ["Colour", plain(product.color)],
    ["Material", plain(product.material)],
    ["Price", price ? [price, plain(offer?.priceCurrency)].filter(Boolean).join(" ") : null],
    ["Availability", availability],
    [
      "Rating",
      plain(rating?.ratingValue)
        ? `${plain(rating?.ratingValue)}${plain(rating?.bestRating) ? ` of ${plain(rating?.bestRating)}` : ""}${plain(rating?.reviewCount) ? ` (${plain(rating?.reviewCount)} reviews)` : ""}`
        : null,
    ],
  ];
  return rows.flatMap(([label, value]) => (value ? [{ label, value }] : []));
};

/**
 * A product description drawn from the page: name and description from its Product JSON-LD
 * (else og:title / h1 and the meta description or first paragraph), the Product data's facts
 * (`detailsOf`), features from the main content's lists (those under a heading such as
 * "Features" or "Specifications" first, then lists of three or more short items), and the first
 * sentence under each heading. With a topic, the features and sections that match it.
 */
export const productContent = (facts: PageFacts, matches: TopicMatcher, topic: string | null): ProductContent => {
  const notes: string[] = [];
  const product = nodesOfType(facts.page, PRODUCT_TYPES)[0] ?? null;
  if (!product) notes.push("The page has no Product JSON-LD; name and description come from its title and text.");
  const name = plain(product?.name) ?? facts.ogTitle ?? facts.h1 ?? facts.title ?? facts.host;
  const description = plain(product?.description) ?? facts.description?.value ?? facts.intro;
  const details = product ? detailsOf(product) : [];

  const preferred: string[] = [];
  const other: string[] = [];
  const sections: Array<{ heading: string; summary: string }> = [];
  let heading: string | null = null;
  let summarised = false;
  for (const block of contentBlocks(facts.page)) {
    if (block.kind === "heading") {
      heading = block.text;
      summarised = false;
    } else if (block.kind === "list") {
      const items = block.items.filter((item) => item.length <= 200 && countWords(item) >= 1);
      if (heading && FEATURE_HEADING.test(heading)) preferred.push(...items);
      else if (items.length >= 3) other.push(...items);
    } else if (heading && !summarised && heading !== name) {
      const sentence = sentencesOf(block.text).find((candidate) => countWords(candidate) >= 4);
      if (sentence) {
        sections.push({ heading, summary: clipAtWord(sentence, 300) });
        summarised = true;
      }
    }
  }
  const features = [...new Set([...preferred, ...other])].filter(matches).slice(0, MAX_FEATURES);
  const keptSections = sections
    .filter((section) => matches(`${section.heading} ${section.summary}`))
    .slice(0, MAX_SECTIONS);
  if (topic && features.length === 0 && keptSections.length === 0) {
    notes.push(`No feature or section of the page matches the topic "${topic}".`);
  }
  const markdown = [
    `# ${name}`,
    ...(description ? [description] : []),
    ...(features.length > 0 ? [`## Key features\n\n${features.map((feature) => `- ${feature}`).join("\n")}`] : []),
    ...(details.length > 0 ? [`## Details\n\n${details.map((row) => `- ${row.label}: ${row.value}`).join("\n")}`] : []),
    ...keptSections.map((section) => `## ${section.heading}\n\n${section.summary}`),
  ].join("\n\n");
  return {
    contentType: "product",
    title: name,
    name,
    description,
    features,
    details,
    sections: keptSections,
    markdown: `${markdown}\n`,
    notes,
  };
};
