/**
 * Finding names in an answer. Case-insensitive and Unicode-aware: text and names are compared
 * after compatibility decomposition (NFKD) of each character, so full-width `ＡＣＭＥ` is `ACME`
 * and a precomposed `é` is the same as `e` + combining accent. A name must stand as a word
 * where the script separates words: the character next to it may not be a letter, digit or mark
 * of such a script. Scripts written without spaces (Han, kana, Hangul, Thai, Lao, Khmer,
 * Myanmar) need no boundary, so `アクメ` is found in `アクメ社の製品` and `Acme` in `我喜欢Acme公司`.
 */

const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDLIKE = /[\p{L}\p{N}\p{M}_]/u;

/** The text folded one code point at a time, with each folded unit's index in the original. */
const fold = (text: string): { folded: string; origin: number[] } => {
  let folded = "";
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const piece = char.normalize("NFKD");
    for (let i = 0; i < piece.length; i++) origin.push(index);
    folded += piece;
    index += char.length;
  }
  origin.push(text.length);
  return { folded, origin };
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the character beside a match joins the match into a longer word. */
const joins = (beside: string | undefined, edge: string | undefined): boolean =>
  beside !== undefined && edge !== undefined && WORDLIKE.test(beside) && !UNSPACED.test(beside) && !UNSPACED.test(edge);

export type NameMatch = { start: number; end: number; name: string };

/** Every standalone occurrence of the names in the text, as spans of the original text. */
export const findNames = (text: string, names: string[]): NameMatch[] => {
  const { folded, origin } = fold(text);
  const matches: NameMatch[] = [];
  for (const name of names) {
    const pattern = fold(name.trim()).folded;
    if (pattern === "") continue;
    const re = new RegExp(pattern.split(/\s+/).map(escapeRegExp).join("\\s+"), "giu");
    for (const match of folded.matchAll(re)) {
      const start = match.index;
      const end = start + match[0].length;
      const before = [...folded.slice(Math.max(0, start - 2), start)].at(-1);
      const after = [...folded.slice(end, end + 2)][0];
      const first = [...match[0]][0];
      const last = [...match[0]].at(-1);
      if (joins(before, first) || joins(after, last)) continue;
      matches.push({ start: origin[start] ?? 0, end: origin[end] ?? text.length, name });
    }
  }
  return matches;
};
