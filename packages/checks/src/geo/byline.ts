import { pageLanguage } from "../aeo/headings";
import { ancestorsOf, boilerplateReason } from "../lib/boilerplate";
import { BLOCK_ELEMENTS, breakBefore, isHiddenNode, settleBreaks } from "../lib/element";
import { perPage } from "../lib/memo";
import { foldWhitespace, type Page } from "../page";

/**
 * What opens a byline in each language the checks read: "By Jane Doe", "Posted by", "Par",
 * "Por", "Von", "Door", "Di"... (longest first, so that "Posted by" wins over "by"), and the
 * labels set before a colon ("Author: Jane Doe", "Autor: …").
 */
const OPENERS: Record<string, { words: readonly string[]; labels: readonly string[] }> = {
  en: {
    words: ["posted by", "written by", "words by", "story by", "reported by", "by"],
    labels: ["author", "authors"],
  },
  fr: { words: ["publié par", "écrit par", "rédigé par", "par"], labels: ["auteur", "auteurs", "autrice"] },
  es: { words: ["publicado por", "escrito por", "redactado por", "por"], labels: ["autor", "autora", "autores"] },
  pt: { words: ["publicado por", "escrito por", "por"], labels: ["autor", "autora", "autores"] },
  de: { words: ["geschrieben von", "verfasst von", "von"], labels: ["autor", "autorin", "autoren"] },
  nl: { words: ["geschreven door", "gepost door", "door"], labels: ["auteur", "auteurs"] },
  it: { words: ["scritto da", "pubblicato da", "di"], labels: ["autore", "autrice", "autori"] },
};
// Japanese sets the label before the name with a colon or a middle dot: 著者：山田太郎, 文・山田
const JAPANESE = /^(?:著者|執筆者?|筆者|作者|投稿者|文)\s*[:：・/／]\s*([^\s、。,]{1,20})/u;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// a name: capitalised words, with the particles of family names between them (Jean de La Fontaine)
const WORD = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*`;
const PARTICLE = "(?:de|da|del|della|di|du|des|dos|la|le|van|von|der|den|ten|ter|bin|al|y)";
// a month and a day open the date after a name ("By Erin Cunningham March 18"), not part of it ("By Theresa May" is)
const MONTH_DAY = String.raw`(?:jan(?:uary|vier)?|feb(?:ruary)?|février|mar(?:ch)?|mars|apr(?:il)?|avril|may|mai|june?|juin|july?|juillet|aug(?:ust)?|août|sep(?:t|tember)?|septembre|oct(?:ober)?|octobre|nov(?:ember)?|novembre|dec(?:ember)?|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|januar|februar|märz|juni|juli|oktober|dezember|januari|februari|maart|mei|augustus)\.?\s+\d`;
const NAME = String.raw`${WORD}(?:\s+(?:${PARTICLE}\s+)?(?!${MONTH_DAY})${WORD}){0,3}`;
// what may follow a name on a byline: nothing, punctuation, a second name, or a date or outlet
const AFTER = String.raw`(?=$|\s*\d|\s+${MONTH_DAY}|\s*[,.|·•/()–—:-]|\s+(?:and|&|et|y|und|en|e|ed|on|at|le|el|am|op|em|il|for|pour|para|für|voor|per|updated|published)\b)`;

const patternFor = (words: readonly string[], labels: readonly string[]): RegExp =>
  new RegExp(
    String.raw`^(?:(?:${words.map(escapeRegExp).join("|")})\s+|(?:${labels.map(escapeRegExp).join("|")})\s*[:：]\s*)(${NAME})${AFTER}`,
    "iu",
  );

const ALL = Object.values(OPENERS);
const PATTERNS = new Map<string, RegExp>();
const patternOfLanguage = (lang: string): RegExp => {
  let pattern = PATTERNS.get(lang);
  if (!pattern) {
    // English bylines are common on pages in any language; without a lang, every language's openers count
    const chosen = OPENERS[lang] ? [OPENERS[lang], OPENERS.en] : ALL;
    pattern = patternFor(
      [...new Set(chosen.flatMap((opener) => opener?.words ?? []))].sort((a, b) => b.length - a.length),
      [...new Set(chosen.flatMap((opener) => opener?.labels ?? []))],
    );
    PATTERNS.set(lang, pattern);
  }
  return pattern;
};

// the opener matches case-insensitively ("BY JANE DOE"), the name must still be capitalised
const capitalised = (name: string): boolean => /^\p{Lu}/u.test(name);

const SILENT = new Set(["script", "style", "noscript", "template", "svg", "head", "title", "button", "select"]);
// a byline is short: a name and perhaps a date or a role
const MAX_WORDS = 14;

/** Whether a line of text is a byline ("By Jane Doe", "Par …", "著者：…") in the page's language or English. */
export const isBylineLine = (page: Page, text: string): boolean => {
  const line = foldWhitespace(text);
  if (line.split(" ").length > MAX_WORDS) return false;
  if (JAPANESE.test(line)) return true;
  const match = patternOfLanguage(pageLanguage(page)).exec(line);
  return match?.[1] !== undefined && capitalised(match[1]);
};

export type Byline = { name: string; line: string; where: "content" | "site" };

// blocks beside the content where a one-author site credits its author ("By John Gruber" under the site's name)
const SITE_CREDIT = new Set([
  'a "sidebar" block',
  "<aside>",
  "the site's <header>",
  'role="complementary"',
  'role="banner"',
]);
// teasers list other pages with their bylines: lines in list items and links are theirs
const TEASER = new Set(["li", "a"]);

/** The byline lines of the rendered page's body, in order: in its content, or (`site`) beside it. */
const bylineLines = (page: Page, where: Byline["where"], max: number): Byline[] => {
  const body = page.doc.body;
  if (!body) return [];
  const pattern = patternOfLanguage(pageLanguage(page));
  // the header that holds the page's h1 holds its byline too, even outside an <article>
  const keep = ancestorsOf(page.main.pageHeading);
  const found: Byline[] = [];
  let line = "";
  const flush = () => {
    const text = foldWhitespace(settleBreaks(line));
    line = "";
    if (text === "" || text.split(" ").length > MAX_WORDS) return;
    const japanese = JAPANESE.exec(text);
    if (japanese?.[1]) {
      found.push({ name: japanese[1], line: text, where });
      return;
    }
    const match = pattern.exec(text);
    if (match?.[1] && capitalised(match[1])) found.push({ name: match[1], line: text, where });
  };
  // an explicit stack: pages nest deeper than recursion should go; a null entry closes a block,
  // a string is a break between elements set side by side (the spans of "by Lucas Nolan" and "22 Dec 2016")
  const stack: Array<{ node: Node; beside: boolean } | null | string> = [{ node: body, beside: false }];
  while (stack.length > 0 && found.length < max) {
    const entry = stack.pop();
    if (entry === null) {
      flush();
      continue;
    }
    if (typeof entry === "string") {
      line += entry;
      continue;
    }
    if (!entry) break;
    const { node } = entry;
    let { beside } = entry;
    if (node.nodeType === 3) {
      if (beside === (where === "site")) line += node.nodeValue ?? "";
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    const tag = element.localName;
    if (SILENT.has(tag) || isHiddenNode(element)) continue;
    if (element !== body && !keep.has(element)) {
      const reason = boilerplateReason(element);
      if (reason !== null) {
        if (where === "content" || beside || !SITE_CREDIT.has(reason)) continue;
        beside = true;
      }
      if (where === "site" && beside && TEASER.has(tag)) continue;
    }
    const block = BLOCK_ELEMENTS.has(tag);
    if (block) {
      flush();
      stack.push(null);
    }
    const children = element.childNodes;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (!child) continue;
      stack.push({ node: child, beside });
      const gap = breakBefore(child);
      if (gap !== "") stack.push(gap);
    }
  }
  flush();
  return found;
};

/**
 * The page's visible byline: a short line ("By Jane Doe", "Posted by Alon Zakai.", "Written by
 * Rob Ewaschuk", "Par Alexandre Hervaud et …", "Von …", "Door …", "著者：…") that opens with a
 * byline word of the page's language (or English), followed by a capitalised name and then
 * nothing, punctuation, a date, a second name or an outlet. The first in the page's content
 * (outside navigation, sidebars, widgets and comment threads: lib/boilerplate.ts), else the one
 * byline of a sidebar or of the site's header, outside lists and links: a one-author site
 * credits its author there, while "By …" under a related story's link is that story's byline
 * (several such lines are teasers, and none counts). Markup-hidden lines are not read.
 */
export const visibleByline = perPage((page: Page): Byline | null => {
  const [content] = bylineLines(page, "content", 1);
  if (content) return content;
  const site = bylineLines(page, "site", 2);
  return site.length === 1 ? (site[0] ?? null) : null;
});
