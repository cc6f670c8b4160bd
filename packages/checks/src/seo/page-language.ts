import { jsonLd, textOf } from "../lib/jsonld";
import type { Page } from "../page";
import { elementsNamed } from "./dom";
import { metaKeyed } from "./head";
import { languageTagProblem } from "./language-tag";

/** What the page itself says or shows of its language, for a fix to propose. */
export type LanguageGuess = { tag: string; reason: string };

// scripts that name their language, or a short list of them; checked on the page's own text
const SCRIPTS: ReadonlyArray<{ pattern: RegExp; tag: string; name: string }> = [
  { pattern: /[\u3040-\u30ff]/gu, tag: "ja", name: "Japanese kana" },
  { pattern: /[\uac00-\ud7af]/gu, tag: "ko", name: "Korean hangul" },
  { pattern: /[\u4e00-\u9fff]/gu, tag: "zh", name: "Chinese characters" },
  { pattern: /[\u0e00-\u0e7f]/gu, tag: "th", name: "Thai script" },
  { pattern: /[\u0370-\u03ff]/gu, tag: "el", name: "Greek script" },
  { pattern: /[\u0590-\u05ff]/gu, tag: "he", name: "Hebrew script" },
];

// the commonest function words of the Latin-script languages the checks know; a language is
// taken only when its words clearly outnumber every other's
const WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ["the", "and", "of", "to", "is", "in", "that", "for", "with", "was", "this", "are"],
  de: ["der", "die", "und", "das", "ist", "nicht", "ein", "eine", "mit", "auf", "den", "sich"],
  fr: ["le", "la", "les", "et", "des", "est", "une", "dans", "pour", "que", "qui", "pas"],
  es: ["el", "los", "las", "y", "es", "una", "por", "con", "para", "del", "que", "como"],
  pt: ["o", "os", "as", "e", "uma", "não", "com", "para", "do", "da", "que", "em"],
  it: ["il", "gli", "e", "di", "che", "è", "una", "per", "con", "non", "della", "sono"],
  nl: ["de", "het", "een", "en", "van", "niet", "dat", "is", "op", "voor", "met", "zijn"],
};
const NAMES: Readonly<Record<string, string>> = {
  en: "English",
  de: "German",
  fr: "French",
  es: "Spanish",
  pt: "Portuguese",
  it: "Italian",
  nl: "Dutch",
};

// enough of the page's text to tell its language, not a long page's all
const SAMPLE = 20_000;

/** A stated tag made valid where that is only a matter of form: "zh_CN" → "zh-CN". */
const tagFrom = (raw: string): string | null => {
  const tag = raw.trim().replace(/_/g, "-");
  return tag !== "" && languageTagProblem(tag) === null ? tag : null;
};

const statedElsewhere = (page: Page): LanguageGuess | null => {
  for (const meta of elementsNamed(page, "meta")) {
    if ((meta.getAttribute("http-equiv") ?? "").trim().toLowerCase() !== "content-language") continue;
    const tag = tagFrom((meta.getAttribute("content") ?? "").split(",")[0] ?? "");
    if (tag) return { tag, reason: `its <meta http-equiv="content-language"> says ${tag}` };
  }
  const locale = metaKeyed(page, "og:locale")?.getAttribute("content");
  const fromLocale = locale ? tagFrom(locale) : null;
  if (fromLocale) return { tag: fromLocale, reason: `its og:locale is ${locale?.trim()}` };
  for (const block of jsonLd(page).blocks) {
    if (!block.ok) continue;
    const stack: unknown[] = [block.value];
    while (stack.length > 0) {
      const value = stack.pop();
      if (Array.isArray(value)) stack.push(...value);
      else if (value && typeof value === "object") {
        const node = value as Record<string, unknown>;
        const stated = "inLanguage" in node ? textOf(node.inLanguage) : null;
        const tag = stated ? tagFrom(stated) : null;
        if (tag) return { tag, reason: `its JSON-LD inLanguage is ${stated}` };
        stack.push(...Object.values(node));
      }
    }
  }
  return null;
};

const byText = (page: Page): LanguageGuess | null => {
  const body = page.doc.body;
  if (!body) return null;
  const text = (body.textContent ?? "").slice(0, SAMPLE);
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters < 40) return null;
  // kana mark Japanese even among kanji; Chinese only when no kana
  for (const { pattern, tag, name } of SCRIPTS) {
    const count = (text.match(pattern) ?? []).length;
    if (count * 5 >= letters) return { tag, reason: `its text is written in ${name}` };
  }
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const counts = Object.entries(WORDS).map(([tag, list]) => {
    const set = new Set(list);
    return { tag, count: words.filter((word) => set.has(word)).length };
  });
  counts.sort((a, b) => b.count - a.count);
  const [best, next] = counts;
  if (!best || best.count < 10 || (next && best.count < next.count * 2)) return null;
  return { tag: best.tag, reason: `its text reads as ${NAMES[best.tag]}` };
};

/**
 * The language the page states elsewhere (content-language, og:locale, JSON-LD inLanguage) or,
 * failing that, shows in its text (a script that names its language, or the clear majority of
 * a Latin-script language's commonest words); null when neither tells.
 */
export const pageLanguage = (page: Page): LanguageGuess | null => statedElsewhere(page) ?? byText(page);
