import { defineCheck } from "../check";
import { isBylineLine } from "../geo/byline";
import { readableText } from "../lib/element";
import { NOT_RUNNING_TEXT } from "../lib/own-content";
import { judgesContent } from "../lib/placeholder";
import { clip, isPlayerLine, sentencesOf } from "../lib/text";
import { countWords, type Page } from "../page";
import { isContent, mainAncestorNamed, mainElementsNamed } from "./main-dom";

const MIN_WORDS = 15;
const MAX_WORDS = 80;
// datelines, credits and labels that open an article before its first real paragraph
// (a date in Chinese or Japanese, 2026年11月27日, is a dateline when at most a time or a place follows it)
const DATELINE =
  /^(?:(?:photo|image|credit|source|updated|published|posted on|last updated|advertisement|publicité|publicidad|anzeige)\b|\d{1,2}[./ ]\d{1,2}[./ ]\d{2,4}\b|[0-9０-９]{4}\s*年\s*[0-9０-９]{1,2}\s*月\s*[0-9０-９]{1,2}\s*日[^。．.!?！？]{0,24}$)/i;
// an opening that announces what the page will do instead of saying it, in the languages the checks read
const ANNOUNCEMENT = new RegExp(
  [
    String.raw`^(?:in|on) this (?:article|post|guide|video|tutorial|piece|page|episode)\b`,
    String.raw`^this (?:article|post|guide|tutorial|page) (?:will|is going to|explains how we)\b`,
    String.raw`^(?:today )?we(?:'re| are| will) (?:going to|take a look|look at)\b`,
    String.raw`^(?:welcome to|click|subscribe|sign up|read on|keep reading|scroll down)\b`,
    String.raw`^dans (?:cet article|ce billet|ce guide)\b`,
    String.raw`^en (?:este|el presente) (?:artículo|post)\b`,
    String.raw`^in diesem (?:artikel|beitrag)\b`,
    String.raw`^(?:neste|nesse) (?:artigo|post)\b`,
    String.raw`^in (?:dit|deze) (?:artikel|blog)\b`,
  ].join("|"),
  "iu",
);

type Opening = { text: string; element: Element };

const lettersOf = (text: string): number => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

/**
 * A line that is mostly links (half its letters or more): a breadcrumb trail ("Home >
 * Fables > The greedy dog"), a language switch, a list of tags. It leads elsewhere; it says nothing.
 */
const isLinkLine = (paragraph: Element, text: string): boolean => {
  const links = [...paragraph.querySelectorAll("a")];
  if (links.length < 2) return false;
  const linked = links.reduce((sum, link) => sum + lettersOf(link.textContent ?? ""), 0);
  return linked * 2 >= lettersOf(text);
};

/** A line whose letters lie mostly in <time> elements: a dateline ("Dec. 20, 2016, 12:44 PM UTC / Updated …"). */
const isTimeLine = (paragraph: Element, text: string): boolean => {
  const times = [...paragraph.querySelectorAll("time")];
  if (times.length === 0) return false;
  const timed = times.reduce((sum, time) => sum + lettersOf(time.textContent ?? ""), 0);
  return timed * 2 >= lettersOf(text);
};

const MEDIA = "img, picture, video, iframe, svg";

/**
 * A short line with no full stop set right after an image or a video: its caption or credit
 * ("Nick Loeb and Sofia Vergara Shutterstock / Getty Images"), which an extraction keeps as a
 * paragraph once the <figcaption> markup is gone.
 */
const isCaption = (paragraph: Element, text: string): boolean => {
  if (countWords(text) >= MIN_WORDS || /[.!?。！？]["”’)]?$/u.test(text)) return false;
  for (let node: Element | null = paragraph; node; node = node.parentElement) {
    const before = node.previousElementSibling;
    if (before) return before.matches(MEDIA) || before.querySelector(MEDIA) !== null;
  }
  return false;
};

/** The first paragraph of the main content with 5 or more words that is no byline, dateline, caption or line of links. */
const opening = (page: Page): Opening | null => {
  for (const paragraph of mainElementsNamed(page, "p")) {
    const text = readableText(paragraph);
    if (countWords(text) < 5 || mainAncestorNamed(page, paragraph, NOT_RUNNING_TEXT) !== null) continue;
    if (!isContent(page, paragraph) || isBylineLine(page, text) || DATELINE.test(text)) continue;
    if (isLinkLine(paragraph, text) || isTimeLine(paragraph, text) || isCaption(paragraph, text)) continue;
    if (isPlayerLine(text, paragraph)) continue;
    return { text, element: paragraph };
  }
  return null;
};

/**
 * Reads the first paragraph of the main content (page.ts: Readability's extraction, never
 * navigation, sidebars or widgets; the first `<p>` of 5 or more words outside figures, quotes,
 * asides and tables, passing over bylines, datelines, credits and lines of links such as a
 * breadcrumb trail; words of Chinese or Japanese counted by page.ts `countWords`), which should sum the page
 * up: an engine quotes it as the page's answer. It passes with 15 to 80 words that state
 * something; it fails when longer or shorter, when it only asks questions (a question is no
 * answer), or when it announces what the page will do ("In this article we will…") instead of
 * saying it.
 */
export const summaryIntro = judgesContent(
  defineCheck({
    id: "summary-intro",
    category: "aeo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content opens with a summary",
    run: (page) => {
      const first = opening(page);
      if (!first) {
        return {
          status: "fail",
          description: `The main content (${page.main.words} words) has no paragraph of text to open with.`,
          fix: `Open the content (${page.main.words} words now, none of them in a <p>) with a ${MIN_WORDS} to ${MAX_WORDS} word paragraph that sums up the page.`,
          evidence: [String(page.main.words)],
        };
      }
      const words = countWords(first.text);
      const quoted = `"${clip(first.text, 70)}"`;
      const evidence = [first.text];
      if (words < MIN_WORDS || words > MAX_WORDS) {
        return {
          status: "fail",
          description: `The main content opens with a ${words}-word paragraph, ${quoted}; ${MIN_WORDS} to ${MAX_WORDS} words read as a summary.`,
          fix:
            words > MAX_WORDS
              ? `Open with a shorter paragraph (${MIN_WORDS} to ${MAX_WORDS} words) that states the page's answer, then expand; the ${words} words of ${quoted} can follow it.`
              : `Open with a paragraph of ${MIN_WORDS} to ${MAX_WORDS} words that sums up the page, before or in place of ${quoted}.`,
          evidence,
        };
      }
      const sentences = sentencesOf(first.text);
      if (sentences.length > 0 && sentences.every((sentence) => /[?？]$/.test(sentence))) {
        return {
          status: "fail",
          description: `The main content opens with questions, ${quoted}, and answers none of them there.`,
          fix: `Follow or replace ${quoted} with the answer in ${MIN_WORDS} to ${MAX_WORDS} words: engines quote an opening that states the answer.`,
          evidence,
        };
      }
      if (ANNOUNCEMENT.test(first.text)) {
        return {
          status: "fail",
          description: `The main content opens by announcing what the page will do, ${quoted}, rather than saying it.`,
          fix: `Replace ${quoted} with the page's answer itself in ${MIN_WORDS} to ${MAX_WORDS} words: what the reader will learn, stated.`,
          evidence,
        };
      }
      return {
        status: "pass",
        description: `The main content opens with a ${words}-word paragraph that states its point: ${quoted}.`,
        evidence,
      };
    },
  }),
);
