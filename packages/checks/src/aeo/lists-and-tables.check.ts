import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { contentPassages, contentSentences, type Passage } from "../lib/own-content";
import { judgesContent } from "../lib/placeholder";
import { boldLead, excerpt, QUOTE_MARK, quoted, sentencesOf } from "../lib/text";
import { countWords, type Page } from "../page";
import { isContent, mainElementsNamed } from "./main-dom";

const childCount = (element: Element, tag: string): number => {
  let count = 0;
  for (const child of element.children) if (child.localName === tag) count++;
  return count;
};

/**
 * Reads the lists and tables of the main content (page.ts: Readability's extraction, or its
 * fallback, never navigation, sidebars or widgets: lib/boilerplate.ts): a list of 3 or more
 * items (`<ul>`, `<ol>` with 3 `<li>`, or `<dl>` with 3 `<dt>`) or a table with header cells
 * (`<th>`; a table with role="presentation" is layout) passes: steps, options and comparisons
 * that engines lift whole. Menus and link lists of a fallback's `<body>` do not count.
 */
export const listsAndTables = judgesContent(
  defineCheck({
    id: "lists-and-tables",
    category: "aeo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content uses lists or tables",
    run: (page) => {
      const inContent = (element: Element) => isContent(page, element);
      const lists =
        [...mainElementsNamed(page, "ul"), ...mainElementsNamed(page, "ol")].filter(
          (list) => childCount(list, "li") >= 3 && inContent(list),
        ).length +
        mainElementsNamed(page, "dl").filter((list) => childCount(list, "dt") >= 3 && inContent(list)).length;
      const tables = mainElementsNamed(page, "table").filter(
        (table) =>
          !["presentation", "none"].includes(table.getAttribute("role") ?? "") &&
          table.querySelector("th") !== null &&
          inContent(table),
      ).length;
      if (lists > 0 || tables > 0) {
        const parts = [
          lists > 0 ? `${lists} list${lists === 1 ? "" : "s"} of 3 or more items` : null,
          tables > 0 ? `${tables} table${tables === 1 ? "" : "s"} with header cells` : null,
        ].filter((part) => part !== null);
        return { status: "pass", description: `The main content has ${parts.join(" and ")}.`, evidence: parts };
      }
      const words = page.main.words;
      const heading = page.main.heading ? readableText(page.main.heading) : "";
      return {
        status: "fail",
        description: `The main content's ${words} words${heading ? ` under "${heading.length > 60 ? `${heading.slice(0, 59)}…` : heading}"` : ""} hold no list of 3 or more items and no table with header cells.`,
        fix: listFix(page, words),
        evidence: [String(words), heading],
      };
    },
  }),
);

// a paragraph that opens with a list number or a step ("1.", "2)", "Step 3", "①")
const NUMBERED = /^(?:\d{1,2}[.)]\s|step\s+\d|schritt\s+\d|étape\s+\d|[①-⑳]|\(\d{1,2}\)\s)/iu;
// a series written into a sentence: items set apart by commas or semicolons (、 and ， in Chinese and Japanese)
const SERIES_SEPARATOR = /[,;、，；]/u;
const SERIES_LAST = /^(?:and|or|und|oder|et|ou|y|o|e|en|of)\s/iu;
const SERIES_JOINED = /\s(?:and|or|und|oder|et|ou|y|o|e|en)\s/iu;

/**
 * The number of items in the longest series a sentence runs ("a camera, a screen, speakers and
 * Wi-Fi"; 「アート、エンターテインメント、アニメーション、マンガ」): items of up to four words set
 * apart by separators, the last after "and" or "or" in the languages that join it so; 0 when none.
 */
const seriesLength = (sentence: string): number => {
  const parts = sentence.split(SERIES_SEPARATOR).map((part) => part.trim());
  let best = 0;
  let run = 0;
  for (const [index, part] of parts.entries()) {
    const short = part !== "" && countWords(part) <= 4;
    // "sandpaper and glue": the last two items joined inside one part close the series
    if (index > 0 && short && SERIES_JOINED.test(part)) {
      best = Math.max(best, run + 3);
      run = 0;
      continue;
    }
    if (index > 0 && index < parts.length - 1 && short) {
      run++;
      continue;
    }
    // the run is closed by the part after it: "and Etsy" in Latin script (else commas set apart a
    // clause or an apposition, not items), any part in Chinese and Japanese, which join no last item
    const closes = run > 0 && (SERIES_LAST.test(part) || /[、，]/u.test(sentence));
    if (closes) best = Math.max(best, run + 2);
    run = 0;
  }
  return best;
};

/**
 * A run of 3 or more consecutive paragraphs that each open with a number or a short bold lead-in
 * followed by more text ("1. …", "<b>The styling tip:</b> …"): a list set as paragraphs. A bold
 * question is an interview's, not a list's item.
 */
const paragraphRun = (passages: readonly Passage[]): Passage[] | null => {
  let run: Passage[] = [];
  for (const passage of passages) {
    const lead = boldLead(passage.element);
    const listLike =
      NUMBERED.test(passage.text) ||
      (lead !== "" && countWords(lead) <= 8 && !/[?？]/u.test(lead) && passage.text.length > lead.length + 10);
    if (listLike && passage.element.localName === "p") run.push(passage);
    else if (run.length >= 3) return run;
    else run = [];
  }
  return run.length >= 3 ? run : null;
};

/** The sentence of the content with the longest series of 3 or more items, or null; a sentence quoting someone is theirs, not a list. */
const inlineSeries = (passages: readonly Passage[]): string | null => {
  let best: { sentence: string; items: number } | null = null;
  for (const { text } of passages) {
    for (const sentence of sentencesOf(text)) {
      if (QUOTE_MARK.test(sentence) || countWords(sentence) > 80) continue;
      const items = seriesLength(sentence);
      if (items >= 3 && (!best || items > best.items)) best = { sentence, items };
    }
  }
  return best?.sentence ?? null;
};

/**
 * The fix names the content's own list or table candidate: paragraphs set one after another as
 * numbered steps or bold-led items, else the sentence that runs the longest series of items;
 * else it says the prose holds none, so a list is the owner's to add only where the text has one.
 */
const listFix = (page: Page, words: number): string => {
  const passages = contentPassages(page);
  const run = paragraphRun(passages);
  if (run) {
    const heads = run.slice(0, 3).map((passage) => quoted(boldLead(passage.element) || passage.text, 40));
    return `The ${run.length} paragraphs beginning ${heads.join(", ")}${run.length > 3 ? " …" : ""} are items of one list: set them as the <li> of an <ol> (steps) or a <ul>, or as rows of a <table> with <th> headers where they compare the same facts.`;
  }
  const series = inlineSeries(passages);
  if (series)
    return `The sentence ${quoted(series, 160)} runs a series of items: where they are options, steps or things compared, set them as a <ul>/<ol> under that sentence, or a <table> with <th> headers.`;
  // the content's first statement: never a caption, a dateline or a headline set as a paragraph
  const [opening] = contentSentences(page);
  return opening
    ? `No paragraph or sentence of the ${words} words (from ${quoted(excerpt(opening, 60), 60)} on) is set as a list's items or runs a series of them; where the text gives steps, options or comparisons, which its owner knows, set them as an <ol>/<ul> or a <table> with <th> headers.`
    : `Where the ${words} words give steps, options or comparisons, put them in <ol>/<ul> lists or a <table> with <th> headers.`;
};
