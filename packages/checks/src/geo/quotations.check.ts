import { pageLanguage } from "../aeo/headings";
import { isContent } from "../aeo/main-dom";
import { defineCheck } from "../check";
import { isHiddenByMarkup, isInert, readableText } from "../lib/element";
import { perPage } from "../lib/memo";
import { contentPassages, contentSentences, type Passage } from "../lib/own-content";
import { judgesContent } from "../lib/placeholder";
import { boldLead, clip, QUOTE_MARK, quoted } from "../lib/text";
import type { Page } from "../page";
import { proseText } from "./statistics.check";

/**
 * How a quotation is attributed in each language the checks read: the speech verbs set before
 * or after the speaker's name ("said Jane Doe", "Jane Doe said", "a déclaré …", "dijo …",
 * "sagte …", "disse …", "zei …"), the verbs French inverts after a quote ("a-t-il expliqué"),
 * and the phrases that name a source ("according to", "selon", "según", "laut", "segundo",
 * "volgens", "secondo").
 */
const SPEECH: Record<string, { verbs: readonly string[]; inverted: readonly string[]; source: readonly string[] }> = {
  en: {
    verbs: [
      ...["said", "says", "wrote", "writes", "explained", "explains", "added", "adds", "noted", "notes", "told"],
      ...["argued", "argues", "recalled", "recalls", "asked", "stated", "states", "warned", "insisted", "admitted"],
      ...["replied", "concluded", "tweeted"],
    ],
    inverted: [],
    source: ["according to"],
  },
  fr: {
    verbs: [
      ...["a déclaré", "a dit", "a expliqué", "a ajouté", "a affirmé", "a souligné", "a estimé", "a précisé"],
      ...["a raconté", "a confié", "a assuré", "déclare", "dit", "explique", "ajoute", "affirme", "souligne"],
      ...["estime", "précise", "raconte", "confie", "assure", "note"],
    ],
    inverted: ["a-t-il", "a-t-elle", "explique-t-il", "explique-t-elle", "dit-il", "dit-elle", "ajoute-t-il"],
    source: ["selon", "d'après", "d’après"],
  },
  es: {
    verbs: [
      ...["dijo", "dice", "afirmó", "afirma", "explicó", "explica", "declaró", "declara", "señaló", "señala"],
      ...["añadió", "añade", "aseguró", "asegura", "comentó", "sostuvo", "advirtió", "escribió"],
    ],
    inverted: [],
    source: ["según", "de acuerdo con"],
  },
  de: {
    verbs: [
      ...["sagte", "sagt", "erklärte", "erklärt", "betonte", "betont", "meinte", "meint", "schrieb", "schreibt"],
      ...["so", "warnte", "ergänzte", "berichtete"],
    ],
    inverted: [],
    source: ["laut", "zufolge", "nach Angaben von"],
  },
  pt: {
    verbs: [
      ...["disse", "diz", "afirmou", "afirma", "explicou", "explica", "declarou", "declara", "contou", "conta"],
      ...["acrescentou", "ressaltou", "escreveu"],
    ],
    inverted: [],
    source: ["segundo", "de acordo com"],
  },
  nl: {
    verbs: ["zei", "zegt", "verklaarde", "verklaart", "aldus", "schreef", "schrijft", "legde uit", "voegde toe"],
    inverted: [],
    source: ["volgens"],
  },
  it: {
    verbs: ["ha detto", "ha dichiarato", "ha spiegato", "ha aggiunto", "dice", "spiega", "afferma", "ha scritto"],
    inverted: [],
    source: ["secondo"],
  },
};
// Japanese closes a quotation with 」 and attributes it with と and a verb of saying
const JAPANESE = /[「『][^」』]{10,}[」』]\s*と\s*(?:述べ|語っ|話し|説明し|明かし|強調し|指摘し|言っ|書い)/u;

const capitalised = (phrase: string): string => phrase.charAt(0).toUpperCase() + phrase.slice(1);
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const alternatives = (words: readonly string[]): string =>
  [...new Set(words)]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|");

const NAME = String.raw`\p{Lu}[\p{L}'’.-]+(?:\s+(?:(?:de|da|del|di|du|van|von|der|la|le)\s+)?\p{Lu}[\p{L}'’.-]+){0,3}`;
// a speaker named before a quotation: capitalised words without a full stop ("Sunday. It says" names no one)
const SPEAKER = String.raw`\p{Lu}[\p{L}'’-]+(?:\s+(?:(?:de|da|del|di|du|van|von|der|la|le)\s+)?\p{Lu}[\p{L}'’-]*){0,3}`;
// pronouns that open a sentence: a speaker, but not a named one
const PRONOUNS = "He|She|They|It|We|I|You|This|That|One|Il|Elle|Ils|Elles|Er|Sie|Es|Ella|Él|Ele|Zij|Hij";
// a quoted passage of 20 or more characters, in straight, curly, French or German quotes
const QUOTED = `["“«„][^"”»“«]{20,}["”»“]`;

const PATTERNS = new Map<string, RegExp>();
const patternOf = (lang: string): RegExp => {
  let pattern = PATTERNS.get(lang);
  if (!pattern) {
    const own = SPEECH[lang];
    // English attributions are common on pages in any language; without a lang, every language's count
    const chosen = own ? [own, SPEECH.en] : Object.values(SPEECH);
    const verbs = alternatives(chosen.flatMap((speech) => speech?.verbs ?? []));
    const inverted = alternatives(chosen.flatMap((speech) => speech?.inverted ?? []));
    // a source phrase opens a sentence as often as it follows a clause: "According to the WHO, …"
    const source = alternatives(
      chosen.flatMap((speech) => speech?.source ?? []).flatMap((phrase) => [phrase, capitalised(phrase)]),
    );
    const verb = `(?:${verbs})`;
    // the verb must be spelt as written (lower case); only the name is capitalised
    pattern = new RegExp(
      [
        String.raw`${QUOTED}\s*,?\s*(?:${verb}\s+${NAME}|${NAME}\s+${verb}(?![\p{L}])|[—–-]\s*${NAME})`,
        // the speaker before the quotation: Jane Doe said: "…", Jane Doe told reporters, "…"; a
        // pronoun ("She writes, …") names no one
        String.raw`(?<![\p{L}])${SPEAKER}(?<!(?:^|[^\p{L}])(?:${PRONOUNS}))\s+${verb}(?:\s+(?:reporters|journalists|the \p{L}+|us|me|him|her|them))?\s*[:,]\s*${QUOTED}`,
        ...(inverted ? [String.raw`${QUOTED}\s*,?\s*(?:${inverted})(?![\p{L}])`] : []),
        String.raw`(?<![\p{L}])(?:${source})\s+(?:(?:the|le|la|el|der|die|de|o|a)\s+)?${NAME}`,
      ].join("|"),
      "u",
    );
    PATTERNS.set(lang, pattern);
  }
  return pattern;
};

// a quotation given to "he" or "she" ("…," she said; He said: "…"; „…“, sagte er): whom the pronoun
// stands for is named before it, as French's "a-t-elle déclaré" is read above
const ENGLISH_VERB = `(?:${alternatives(SPEECH.en?.verbs ?? [])})`;
const BY_PRONOUN = new RegExp(
  [
    String.raw`${QUOTED}\s*,?\s*(?:(?:he|she)\s+${ENGLISH_VERB}|${ENGLISH_VERB}\s+(?:he|she)|(?:sagte|sagt|erklärte|meinte|betonte|schrieb)\s+(?:er|sie))(?![\p{L}])`,
    String.raw`(?<![\p{L}])(?:He|She)\s+${ENGLISH_VERB}\s*[:,]\s*${QUOTED}`,
  ].join("|"),
  "u",
);
// a person named before a quotation given to a pronoun: two capitalised words ("Michelle Obama")
// in one paragraph of the content, so that a heading and the next paragraph's first word are no name
const NAMED_PERSON = /(?<![\p{L}])\p{Lu}[\p{Ll}'’-]+ +\p{Lu}[\p{Ll}'’-]+/u;

/** Whether a paragraph of the main content names a person before `quote` is given to a pronoun. */
const namesPersonBefore = (page: Page, quote: string): boolean => {
  for (const paragraph of page.main.root.querySelectorAll("p, li")) {
    if (!isContent(page, paragraph)) continue;
    const text = readableText(paragraph);
    const at = text.indexOf(quote.slice(0, 20));
    if (NAMED_PERSON.test(at >= 0 ? text.slice(0, at) : text)) return true;
    if (at >= 0) return false;
  }
  return false;
};

/**
 * The first quotation of the main content's prose attributed to a named speaker or source, or
 * to "he" or "she" after the prose has named a person, or null.
 */
const attributedQuote = perPage((page: Page): string | null => {
  const text = proseText(page);
  const match = patternOf(pageLanguage(page)).exec(text) ?? JAPANESE.exec(text);
  if (match) return match[0];
  const byPronoun = BY_PRONOUN.exec(text);
  return byPronoun && namesPersonBefore(page, byPronoun[0]) ? byPronoun[0] : null;
});

// a speaker's label opening a paragraph of a transcript: "Kevin Kühnert: …", "DIE ZEIT: …", "Q: …"
const SPEAKER_LABEL = /^(\p{Lu}[\p{L}.'’ -]{0,30}?)\s?[:：]\s+\S/u;
// an interview reads as one: at least this many questions and answers
const MIN_EXCHANGES = 3;

type Interview = { speaker: string; answers: number; questions: string; first: string };

/**
 * Transcript form: paragraphs opened by the labels of two speakers who take turns ("DIE ZEIT: …",
 * "Kevin Kühnert: …", "ZEIT: …", "Kühnert: …"; a label is known by its last word), two exchanges
 * or more, one of whom asks; the interviewee is the speaker with the more words. Labels of three
 * or more kinds, or of two that ask nothing ("The statement:", "The styling tip:"), are a
 * list's, not a conversation's.
 */
const labelledInterview = (passages: readonly Passage[]): Interview | null => {
  const turns: Array<{ speaker: string; label: string; said: string }> = [];
  for (const { text } of passages) {
    const label = SPEAKER_LABEL.exec(text)?.[1]?.trim();
    if (!label || label.split(" ").length > 4) continue;
    const speaker = (label.split(" ").at(-1) ?? label).toLowerCase();
    turns.push({ speaker, label, said: text.slice(text.indexOf(label) + label.length).replace(/^\s?[:：]\s*/u, "") });
  }
  const speakers = [...new Set(turns.map((turn) => turn.speaker))];
  if (speakers.length !== 2 || turns.length < 4) return null;
  if (turns.some((turn, index) => index > 0 && turn.speaker === turns[index - 1]?.speaker)) return null;
  const wordsOf = (speaker: string) =>
    turns.filter((turn) => turn.speaker === speaker).reduce((sum, turn) => sum + turn.said.split(/\s+/).length, 0);
  const [interviewee, interviewer] = [...speakers].sort((a, b) => wordsOf(b) - wordsOf(a));
  const answers = turns.filter((turn) => turn.speaker === interviewee);
  // an interviewer asks: half their turns or more hold a question ("The statement: …" of a list asks nothing)
  const asked = turns.filter((turn) => turn.speaker === interviewer);
  if (asked.filter((turn) => /[?？]/u.test(turn.said)).length * 2 < asked.length) return null;
  // the speaker as first labelled, in full ("Kevin Kühnert")
  const named = (speaker: string | undefined) => turns.find((turn) => turn.speaker === speaker)?.label ?? "";
  return {
    speaker: named(interviewee),
    answers: answers.length,
    questions: `the questions of ${named(interviewer)}`,
    first: answers[0]?.said ?? "",
  };
};

/** Q&A form: paragraphs opened by a question in bold and answered after it in the same paragraph. */
const boldInterview = (page: Page, passages: readonly Passage[]): Interview | null => {
  const answers: string[] = [];
  for (const { element, text } of passages) {
    const lead = boldLead(element);
    if (lead === "" || text.length <= lead.length + 20) continue;
    if (/[?？]\s*$/u.test(lead)) answers.push(text.slice(lead.length).trim());
  }
  if (answers.length < MIN_EXCHANGES) return null;
  // the interviewee: the person the headline names ("Greg Berlanti Knows the Secret…"), when it names one
  const heading = page.main.heading ? readableText(page.main.heading) : "";
  const speaker = NAMED_PERSON.exec(heading)?.[0] ?? "";
  return { speaker, answers: answers.length, questions: "questions set in bold", first: answers[0] ?? "" };
};

/**
 * An interview: its answers are the quoted words of a named speaker, set as a transcript
 * ("Kühnert: …" after "DIE ZEIT: …") or as questions in bold each followed by its answer. A
 * quotation needs no quotation marks there: the form itself attributes every answer.
 */
const interviewOf = perPage((page: Page): Interview | null => {
  const passages = contentPassages(page);
  return labelledInterview(passages) ?? boldInterview(page, passages);
});

/**
 * Reads the main content (page.ts: never navigation, sidebars or widgets) for a quotation (GEO,
 * Aggarwal et al. 2024: quotation addition raised visibility in generative answers the most): a
 * `<blockquote>` or `<q>` with text, or a quoted passage of its prose attributed to a named
 * speaker or source in the page's language or English (`SPEECH`: "…," said Jane Doe; Jane Doe
 * said: "…"; «…», a
 * déclaré …; "…", dijo …; „…“, sagte …; according to, selon, según, laut, segundo, volgens;
 * 「…」と述べた). Pull quotes in `<blockquote>` count: an extractor reads them as quotations too.
 * A heuristic.
 */
export const quotations = judgesContent(
  defineCheck({
    id: "quotations",
    category: "geo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content quotes someone",
    run: (page) => {
      const elements = [...page.main.root.querySelectorAll("blockquote, q")].filter(
        (element) => readableText(element) !== "" && isContent(page, element),
      );
      const [first] = elements;
      if (first) {
        const text = readableText(first);
        return {
          status: "pass",
          description: `The main content has ${elements.length} quotation${elements.length === 1 ? "" : "s"} in <blockquote> or <q>, the first: "${clip(text, 80)}".`,
          evidence: [text],
        };
      }
      const interview = interviewOf(page);
      if (interview) {
        return {
          status: "pass",
          description: `The main content is an interview: ${interview.answers} answers${interview.speaker ? ` by ${interview.speaker}` : ""} to ${interview.questions}, the first: "${clip(interview.first, 80)}".`,
          evidence: [interview.speaker, interview.first],
        };
      }
      const attributed = attributedQuote(page);
      if (attributed) {
        // the quotation, shortened, and its attribution in full: the speaker is the evidence
        const close = Math.max(...['"', "”", "»", "“", "」", "』"].map((mark) => attributed.lastIndexOf(mark)));
        const shown =
          close > 0 ? `${clip(attributed.slice(0, close), 60)}${attributed.slice(close)}` : clip(attributed, 100);
        return {
          status: "pass",
          description: `The main content quotes a named source: ${shown}.`,
          evidence: [attributed],
        };
      }
      const words = page.main.words;
      const heading = page.main.heading ? readableText(page.main.heading) : "";
      // a fix never asks for a quotation the page has: one outside the main content is to be moved into it
      const outside = quoteOutsideContent(page);
      if (outside) {
        return {
          status: "fail",
          description: `The main content's ${words} word${words === 1 ? "" : "s"} quote no one; the page's quotation "${clip(outside, 80)}" stands outside the main content, where extractors do not read it as the page's.`,
          fix: `Move the quotation "${clip(outside, 60)}" into the main content${heading ? ` under "${clip(heading, 60)}"` : ""}, in a <blockquote> or <q>, and name its speaker beside it.`,
          evidence: [outside],
        };
      }
      return {
        status: "fail",
        description: `The main content's ${words} word${words === 1 ? "" : "s"}${heading ? ` under "${clip(heading, 60)}"` : ""} quote no one: no <blockquote>, no <q>, no quotation attributed to a speaker; quotations are a heuristic signal for AI answers.`,
        fix: quotationsFix(page, words, heading),
        evidence: [String(words), heading],
      };
    },
  }),
);

// reported speech: a sentence that says someone said something, without their words in quotation
// marks (the verbs that cannot be a noun or another word: not "states", "notes", "so")
const REPORTED = new RegExp(
  [
    String.raw`(?<![\p{L}])(?:said|says|told|explained|announced|argued|claimed|insisted|warned|according to|a déclaré|a annoncé|a expliqué|selon|dijo|afirmó|según|sagte|erklärte|laut|disse|afirmou|segundo|zei|volgens|ha detto|secondo)(?![\p{L}])`,
    "と(?:述べ|語っ|話し|説明し|明らかにし|発表し)",
    "(?:表示|称|说)[，,：:]",
  ].join("|"),
  "iu",
);

/**
 * The fix: the content's reported speech to give in the speaker's words (its first sentence
 * saying what someone said, announced or found, with no quotation in it), else the claim it
 * opens with, to support with a named expert's or primary source's words; quoted as written.
 */
const quotationsFix = (page: Page, words: number, heading: string): string => {
  const sentences = contentSentences(page);
  const reported = sentences.find((sentence) => REPORTED.test(sentence) && !QUOTE_MARK.test(sentence));
  if (reported)
    return `Give the words behind ${quoted(reported, 120)} as they were said or written, in a <q> or <blockquote> beside the speaker's name, rather than only reporting them.`;
  const [opening] = sentences;
  if (opening)
    return `Support the content's opening claim, ${quoted(opening, 120)}, with the words of a named expert or primary source, in a <blockquote> or <q> with the speaker's name beside it.`;
  return `Quote an expert or a primary source ${heading ? `on "${clip(heading, 60)}" ` : ""}in the ${words} words of the main content, in a <blockquote> or <q>, and name the speaker.`;
};

/**
 * A `<blockquote>` or `<q>` of the article the main content was extracted from (its `<article>`,
 * `<main>` or role=main element) that the extraction left out, such as a pull quote: its text,
 * or null. Quotations elsewhere on the page (an embedded post, a teaser, a widget) are not the
 * article's.
 */
const quoteOutsideContent = (page: Page): string | null => {
  // only Readability's extraction leaves out parts of the article; a <main> or <article> taken whole leaves none
  if (page.main.source !== "readability") return null;
  const articles = page.doc.querySelectorAll("article");
  const article =
    page.main.pageHeading?.closest("article, main, [role=main]") ??
    (articles.length === 1 ? (articles[0] ?? null) : null);
  if (!article) return null;
  const kept = new Set([...page.main.root.querySelectorAll("blockquote, q")].map((element) => readableText(element)));
  for (const element of article.querySelectorAll("blockquote, q")) {
    if (isInert(element) || isHiddenByMarkup(element) || element.closest(NOT_THE_ARTICLES) !== null) continue;
    // an aside is beside the article, unless it is the article's pull quote (<aside class="pullquote">)
    const aside = element.closest("aside");
    if (aside && !/quote/i.test(aside.getAttribute("class") ?? "")) continue;
    const text = readableText(element);
    if (text.length >= 20 && !kept.has(text)) return text;
  }
  return null;
};

// where a quotation inside an article is not the article's: navigation, an embedded post
const NOT_THE_ARTICLES =
  "nav, footer, iframe, [class*=embed], [class*=twitter], [class*=facebook], [class*=instagram], [class*=tiktok]";
