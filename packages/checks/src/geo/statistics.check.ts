import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { firstSentence } from "../lib/own-content";
import { judgesContent } from "../lib/placeholder";
import { quoted } from "../lib/text";
import { foldWhitespace, type Page } from "../page";

// a number in digits: 42, 3.5, 3,400, 1.234,56
const NUMBER = String.raw`\d+(?:[.,]\d+)*`;

/**
 * Numbers written as words, in the languages the checks read. "One" is left out (as in "one
 * of the"), except in a ratio ("one in five") or before a magnitude ("one million").
 */
const ENGLISH_NUMBER_WORDS = [
  ...["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "fifteen"],
  ...["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "hundreds"],
  ...["thousand", "thousands", "dozen", "dozens"],
];
const NUMBER_WORDS = [
  ...ENGLISH_NUMBER_WORDS,
  ...["deux", "trois", "quatre", "cinq", "sept", "huit", "neuf", "dix", "douze", "vingt", "trente", "cent", "mille"],
  ...["dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "doce", "veinte", "treinta", "cien"],
  ...["zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "zwölf", "zwanzig", "hundert"],
  ...["dois", "duas", "três", "quatro", "sete", "oito", "nove", "dez", "doze", "vinte", "trinta", "cem"],
  ...["twee", "drie", "vijf", "zes", "zeven", "negen", "tien", "twaalf", "twintig", "dertig", "honderd", "duizend"],
].join("|");
const COUNT = `(?:${NUMBER}|${NUMBER_WORDS})`;

const MAGNITUDE = [
  ...["k", "m", "bn", "thousand", "million", "millions", "billion", "billions", "trillion"],
  ...["Tausend", "Million", "Millionen", "Milliarde", "Milliarden", "mil", "millón", "millones", "millions"],
  ...["milliard", "milliards", "milione", "milioni", "miliardi", "miljoen", "miljard", "milhão", "milhões", "bilhões"],
].join("|");
const PERCENT = [
  ...["%", "‰", "percent", "per cent", "Prozent", "por ciento", "pour cent", "per cento", "procent", "por cento"],
].join("|");
const CURRENCY = ["USD", "EUR", "GBP", "JPY", "CHF", "dollars?", "euros?", "pounds?", "dólares", "Euro"].join("|");
// units of measure, time and people, in the languages the checks read
const UNIT = [
  ...["km", "cm", "mm", "m²", "km²", "kg", "mg", "g", "lbs?", "oz", "mph", "km/h", "kWh", "kW", "MW", "GW"],
  ...["GB", "MB", "TB", "ms", "°C", "°F", "ft", "mi", "ha", "acres?", "miles?", "kilometres?", "kilometers?"],
  ...["hours?", "hrs?", "minutes?", "mins?", "seconds?", "days?", "weeks?", "months?", "years?", "decades?"],
  ...["people", "users", "customers", "employees", "patients", "students", "children", "adults", "members"],
  ...["countries", "cities", "companies", "times", "votes", "deaths", "cases", "jobs"],
  ...["heures", "jours", "semaines", "mois", "ans", "années", "personnes", "habitants", "pays", "morts"],
  ...["horas", "días", "semanas", "meses", "años", "personas", "países", "muertos", "dias", "anos", "pessoas"],
  ...["Stunden", "Tage", "Wochen", "Monate", "Jahre", "Menschen", "Personen", "Länder", "Einwohner"],
  ...["uur", "dagen", "weken", "maanden", "jaar", "mensen", "landen", "inwoners"],
].join("|");
const FRACTION = "(?:one|two|three)[- ](?:half|thirds?|quarters?|fifths?)";
// a quantity set before a noun with a hyphen: "52-year-old", "a 10-mile race", "a five-day strike"
const HYPHENATED_UNIT = [
  ...["year", "month", "week", "day", "hour", "minute", "second", "mile", "foot", "inch", "metre", "meter"],
  ...["kilometre", "kilometer", "km", "pound", "ounce", "acre", "gallon", "litre", "liter", "storey", "story"],
  ...["point", "percent", "member", "person", "seat", "game", "page", "bed", "room"],
].join("|");

/**
 * Quantities written in Chinese and Japanese, which set no space around a number: a number
 * with a magnitude (3万, 1.2亿, 5000万, 三千万, 数百万), a percentage (30%, ３０％, 3割) or a
 * unit of people, money, things or time (120人, 500円, 30元, 3ドル, 20件, 2倍, 52歳, 3年間,
 * 6か月). A bare year ("2026年") is none. Digits may be full-width.
 */
const CJK_DIGITS = "[0-9０-９]+(?:[.,．，][0-9０-９]+)*";
const CJK_NUMERALS = "[一二三四五六七八九十百千两兩数]+";
const CJK_MAGNITUDE = "(?:千万|百万|万|萬|億|亿|兆|千)";
const CJK_UNIT =
  "(?:人|名|円|元|ドル|美元|欧元|ユーロ|件|個|个|台|社|家|倍|歳|岁|年間|年间|か月|ヶ月|カ月|个月|週間|日間|時間|小时|分間|分钟|秒|キロ|公里|公斤|トン|吨|メートル|平方|票|回|次)";
const CJK_QUANTITY = [
  `(?:${CJK_DIGITS}|${CJK_NUMERALS})${CJK_MAGNITUDE}${CJK_UNIT}?`,
  String.raw`${CJK_DIGITS}\s?(?:[%％‰]|パーセント|割)`,
  `${CJK_DIGITS}${CJK_UNIT}`,
].join("|");

// word edges that hold for accented letters too (\b is ASCII-only)
const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;

/**
 * A number that states a fact: 42 %, $3.5 million, 12 km, 3,400 users, three million, twelve
 * countries, one in five, two-thirds, 3x. A bare year is none ("in 2019" dates, it does not
 * measure), nor is a list number ("Step 2").
 */
const QUANTITY = new RegExp(
  [
    String.raw`${START}${COUNT}\s?(?:${PERCENT})${END}`,
    String.raw`[$€£¥₹]\s?${NUMBER}(?:\s?(?:${MAGNITUDE})${END})?`,
    String.raw`${START}${NUMBER}\s?(?:${CURRENCY})${END}`,
    String.raw`${START}(?:${COUNT}|one|un|une|uno|una|ein|eine|um|een)\s(?:${MAGNITUDE})${END}`,
    `${START}${NUMBER}(?:${MAGNITUDE})${END}`,
    String.raw`${START}${COUNT}\s?(?:${UNIT})${END}`,
    String.raw`${START}(?:${COUNT}|one)\s(?:in|out of|sur|de cada|von|op)\s(?:${COUNT}|one)${END}`,
    `${START}${FRACTION}${END}`,
    String.raw`${START}\d+(?:\.\d+)?\s?(?:x|×)${END}`,
    String.raw`${START}(?:${COUNT}|one)-(?:${HYPHENATED_UNIT})s?(?:-(?:old|long|high|wide|tall|deep))?${END}`,
    // Chinese and Japanese set no space between a number and its unit: no word edge to look for
    // (an ordinal, 第3回, counts nothing)
    String.raw`(?<![0-9０-９.,．第])(?:${CJK_QUANTITY})`,
    // grouped thousands (3,400 or 3.400) are counts, not list numbers
    String.raw`${START}\d{1,3}(?:[,.]\d{3})+${END}`,
  ].join("|"),
  "giu",
);

// text-level elements, which do not end a word
const INLINE = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "cite",
  "data",
  "dfn",
  "em",
  "i",
  "mark",
  "q",
  "s",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
]);
// code, keyboard input and sample output: "$0" in a shell snippet is no amount
const CODE = new Set(["pre", "code", "kbd", "samp", "var", "tt", "math", "script", "style", "noscript", "template"]);

/**
 * The main content's prose: its text (page.ts, the page's h1 included, never navigation,
 * sidebars or widgets) without code blocks, inline code and formulas.
 */
export const proseText = perPage((page: Page): string => {
  const { root, heading, excludes } = page.main;
  const parts: string[] = heading && !root.contains(heading) ? [readableText(heading), " "] : [];
  // a null entry ends a block: "Report" and "Three million" of the next paragraph stay two words
  const stack: Array<Node | null> = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) {
      parts.push(" ");
      continue;
    }
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? "");
      continue;
    }
    if (node.nodeType === 1 && node !== root && (CODE.has((node as Element).localName) || excludes(node as Element)))
      continue;
    if (node.nodeType === 1 && !INLINE.has((node as Element).localName)) {
      parts.push(" ");
      stack.push(null);
    }
    const children = node.childNodes;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child) stack.push(child);
    }
  }
  return foldWhitespace(parts.join(""));
});

const ENGLISH_NUMBER = new Set(ENGLISH_NUMBER_WORDS);
const CAPITALISED = /^\p{Lu}/u;

/** English number words with every word capitalised: a name (Ninety Mile Beach, Four Seasons), not a measure. */
const isName = (quantity: string): boolean => {
  const [first, ...rest] = quantity.split(/[\s-]+/);
  return (
    first !== undefined &&
    rest.length > 0 &&
    CAPITALISED.test(first) &&
    ENGLISH_NUMBER.has(first.toLowerCase()) &&
    rest.every((word) => CAPITALISED.test(word))
  );
};

/**
 * The distinct quantitative facts of the main content's prose, as written. English number words
 * set in capitals as a name are passed over ("Ninety Mile" of Ninety Mile Beach); other
 * languages' are not (German capitalises every noun: "Zwei Millionen").
 */
export const quantities = perPage((page: Page): string[] => [
  ...new Set(
    [...proseText(page).matchAll(QUANTITY)].map((match) => match[0].trim()).filter((quantity) => !isName(quantity)),
  ),
]);

// QUANTITY is global (matchAll); a copy without the flag tests one sentence
const QUANTITY_ONE = new RegExp(QUANTITY.source, "iu");

/** Whether a sentence states a quantitative fact, as the check counts them. */
export const statesQuantity = (sentence: string): boolean => QUANTITY_ONE.test(sentence);

// words that state an amount without giving it: the claims a figure would make quotable
const VAGUE_AMOUNT = new RegExp(
  [
    String.raw`(?<![\p{L}])(?:many|most|fewer|several|numerous|majority|minority|thousands|millions|dozens|hundreds|lots|plenty|huge|massive|vast|records?|soared|soaring|surged?|plunged?|increas(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|doubled|tripled|grew|largest|biggest)(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:viele|meisten|mehrere|zahlreiche|Mehrheit|beaucoup|plupart|plusieurs|nombreux|nombreuses|majorité|hausse|baisse|muchos|muchas|mayoría|varios|aumento)(?![\p{L}])`,
    "多く|多数|大半|大幅|増加|減少|急増|拡大|過去最|大量|很多|许多|大多数|增长|下降|大幅|显著",
  ].join("|"),
  "iu",
);

/**
 * The claims a fix asks to back with figures: the first sentence of the content that states an
 * amount in words ("many", "most", "rose", 多く), else its first sentence (the claim the page
 * opens with), quoted as written; or null for a content with no sentence.
 */
const claimToQuantify = (page: Page): { sentence: string; vague: boolean } | null => {
  // a sentence already giving a number, or quoting someone, is not the page's own claim to quantify
  const vague = firstSentence(
    page,
    (sentence) => VAGUE_AMOUNT.test(sentence) && !/[\d０-９"“”«»„「」]/u.test(sentence) && !QUANTITY_ONE.test(sentence),
  );
  if (vague) return { sentence: vague, vague: true };
  const opening = firstSentence(page);
  return opening ? { sentence: opening, vague: false } : null;
};

/**
 * Reads the prose of the main content (`proseText`: never navigation, sidebars, widgets or
 * code) for quantitative facts (GEO, Aggarwal et al. 2024: adding statistics raised visibility
 * in generative answers). Counted: numbers, in digits or in words, with %, a currency, a
 * magnitude word ("million") or a unit of measure, time or people; ratios ("one in five");
 * fractions in words ("two-thirds"); grouped thousands ("3,400"); multipliers ("3x");
 * quantities hyphenated before a noun ("52-year-old", "a 10-mile race"); Chinese and Japanese
 * magnitudes, percentages and units without spaces ("3万人", "1.2亿元", "30％", "52歳"). A bare
 * year is no fact, and numbers in code (`$0` in a shell snippet) are not prose. Each distinct
 * match counts once. A heuristic: it cannot tell a statistic from a price list.
 */
export const statistics = judgesContent(
  defineCheck({
    id: "statistics",
    category: "geo",
    severity: "info",
    maxScore: 3,
    quick: false,
    title: "Content cites numbers",
    run: (page) => {
      const found = quantities(page);
      const sample = found
        .slice(0, 4)
        .map((quantity) => `"${quantity}"`)
        .join(", ");
      if (found.length >= 3)
        return {
          status: "pass",
          description: `The main content states ${found.length} quantitative facts (${sample}${found.length > 4 ? ", ..." : ""}).`,
          evidence: found,
        };
      const words = `${page.main.words} word${page.main.words === 1 ? "" : "s"}`;
      return {
        status: found.length > 0 ? "warn" : "fail",
        description:
          found.length > 0
            ? `The main content's ${words} state${page.main.words === 1 ? "s" : ""} only ${found.length} quantitative fact${found.length === 1 ? "" : "s"} (${sample}); 3 or more is the aim (a heuristic from GEO research).`
            : `The main content's ${words} state${page.main.words === 1 ? "s" : ""} no figure: no number with a unit, amount or percentage, in digits or in words (years and code do not count).`,
        fix: statisticsFix(page, words),
        evidence: found,
      };
    },
  }),
);

/** The fix: the page's own claim to give a figure, with its source; or, on a content with no sentence, the words to back. */
const statisticsFix = (page: Page, words: string): string => {
  const claim = claimToQuantify(page);
  if (!claim)
    return `Back the claims of these ${words} with concrete figures (percentages, amounts, counts, measurements) and name their source; generative answers favour quotable facts.`;
  return claim.vague
    ? `Give the figure behind ${quoted(claim.sentence, 120)} (the amount its words only suggest: a count, percentage or measurement) and name its source; do the same for the content's other claims of size or change. Generative answers favour quotable facts.`
    : `Back the content's opening claim, ${quoted(claim.sentence, 120)}, and the claims after it with concrete figures (counts, amounts, percentages, measurements) and name their source; generative answers favour quotable facts.`;
};
