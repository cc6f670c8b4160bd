import { foldWhitespace } from "../page";
import { readableText } from "./element";

/**
 * How the checks and the generators cut, quote and split the page's text for the words they
 * write: one rule each, so that a fix and the file a generator writes quote a page alike.
 */

/** Text cut to at most `max` characters, marked with "…" when cut (a description names the page's text, it need not be whole words). */
export const clip = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Text cut at a word boundary to at most `max` characters, with no mark: what is left stays a
 * quote of the page (a generated file writes it as the page's own words). A word that ends at
 * `max` is kept; a single word longer than half of `max` is cut inside.
 */
export const clipAtWord = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,;:–—-]+$/, "");
};

/** Text shortened for a fix at a word boundary (`clipAtWord`), whitespace folded, marked with "…" when cut. */
export const excerpt = (text: string, max = 90): string => {
  const folded = foldWhitespace(text);
  return folded.length <= max ? folded : `${clipAtWord(folded, max)}…`;
};

/** A passage quoted in a fix: “…” around its `excerpt`. */
export const quoted = (text: string, max = 90): string => `“${excerpt(text, max)}”`;

/** A JSON string literal of a text, quotes included: a page's words set into proposed JSON-LD stay valid JSON. */
export const jsonString = (text: string): string => JSON.stringify(text);

// a sentence ends at . ! ? followed by a space and a capital, an uncased letter (CJK, Arabic, Thai …) or an
// opening quote or mark ("¿", "¡"), never a digit or a lower-case letter ("Dec. 20", "approx. three"); or at a CJK full stop
const SENTENCE_END = /(?<=[.!?])\s+(?=["“‘„«(¿¡\p{Lu}\p{Lo}])|(?<=[。！？])/u;

/** A paragraph's sentences, whitespace folded. */
export const sentencesOf = (text: string): string[] =>
  text
    .split(SENTENCE_END)
    .map((sentence) => foldWhitespace(sentence))
    .filter((sentence) => sentence !== "");

/** The marks that open or close a quotation, straight, curly, guillemets and CJK brackets. */
export const QUOTE_MARK = /["“”«»„「」『』]/u;

/** The text of a paragraph's lead-in: an opening <strong>/<b> before the rest of its text, or "". */
export const boldLead = (element: Element): string => {
  const first = [...element.childNodes].find((node) => node.nodeType !== 3 || (node.nodeValue ?? "").trim() !== "");
  return first && first.nodeType === 1 && ["b", "strong"].includes((first as Element).localName)
    ? readableText(first as Element)
    : "";
};

// the words of a line and of attributes, compared: letters and digits, lower case
const tokensOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether a short line with no full stop is a media player's overlay rather than text: every
 * word of it is in the attribute names or values of the blocks around it ("03:08 - Source: CNN"
 * inside a block with data-duration="03:08" data-source="CNN"; a player's title repeated from
 * data-headline="Trump tweetstorm precedes Cabinet appointments"), so the player wrote it from its
 * data. Such a line answers nothing and opens nothing.
 */
export const isPlayerLine = (text: string, at: Node | null): boolean => {
  const words = tokensOf(text);
  if (words.length === 0 || words.length > MAX_PLAYER_WORDS || /[.!?。！？]["”’)]?\s*$/u.test(text)) return false;
  const known = new Set<string>();
  for (let node = at?.parentElement ?? null; node; node = node.parentElement) {
    for (const attribute of node.attributes) {
      for (const token of tokensOf(attribute.name)) known.add(token);
      if (attribute.value.length <= 200) for (const token of tokensOf(attribute.value)) known.add(token);
    }
  }
  return words.every((word) => known.has(word));
};

// a player's title or overlay is a line, not a paragraph: fewer words than an opening summary's 15
const MAX_PLAYER_WORDS = 14;
