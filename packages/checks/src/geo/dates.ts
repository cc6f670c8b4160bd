import { ancestorsOf, enclosingBoilerplate } from "../lib/boilerplate";
import { ancestor, isHiddenByMarkup, readableText } from "../lib/element";
import { type JsonLdNode, jsonLd, textOf } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import { countWords, type Page } from "../page";
import { elementsNamed, isInert } from "../seo/dom";

export type PageDate = {
  date: Date;
  /**
   * `created` is JSON-LD dateCreated: when the record was made, which may be long before the
   * page was published; it stands for the publish date only when the page states no other.
   */
  kind: "published" | "modified" | "date" | "created";
  source: string;
  /** the value as the page writes it */
  raw: string;
};

export type PageDates = {
  /** the page's own usable dates, in the order found (JSON-LD, then meta, then `<time>`) */
  dates: readonly PageDate[];
  /** dates more than a day after the scan, which no page can truly carry */
  future: readonly PageDate[];
  /** `<time>` dates of the rendered page that are not the page's: those of teasers, sidebars and widgets */
  others: readonly PageDate[];
  /** dates in JSON-LD blocks that do not parse: the page's, but unreadable to engines */
  unreadable: readonly PageDate[];
};

const DAY_MS = 24 * 60 * 60 * 1000;

// machine-readable dates only: ISO 8601 with at least year and month ("2026-03", "2026-03-01T10:00Z")
const ISO_DATE = /^\d{4}-\d{2}(?:-\d{2})?(?:[T ]|$)/;

// before the web existed a page cannot have been published; such dates are template placeholders (0001-01-01, 1970-01-01)
const EARLIEST = Date.UTC(1991, 0, 1);

const parse = (raw: string | null | undefined): Date | null => {
  const trimmed = raw?.trim();
  if (!trimmed || !ISO_DATE.test(trimmed)) return null;
  const time = Date.parse(trimmed);
  return Number.isNaN(time) || time < EARLIEST ? null : new Date(time);
};

const JSON_LD_KEYS: Record<string, PageDate["kind"]> = {
  datePublished: "published",
  dateCreated: "created",
  uploadDate: "published",
  dateModified: "modified",
};

// properties whose nodes are other things than the page: its comments, reviews, listed or related items
const OTHER_THINGS = new Set([
  ...["comment", "review", "reviews", "itemListElement", "relatedLink", "significantLink", "citation"],
  ...["isPartOf", "hasPart", "subjectOf", "workExample", "recipeInstructions"],
]);

/** The nodes of JSON-LD that describe the page (top-level items, @graph members, what they hold), not the things it lists. */
const ownNodes = (value: unknown, into: JsonLdNode[] = []): JsonLdNode[] => {
  if (Array.isArray(value)) {
    for (const item of value) ownNodes(item, into);
    return into;
  }
  if (typeof value !== "object" || value === null) return into;
  const node = value as JsonLdNode;
  into.push(node);
  for (const [key, child] of Object.entries(node))
    if (!OTHER_THINGS.has(key) && key !== "@context") ownNodes(child, into);
  return into;
};

const META_KEYS = new Map<string, PageDate["kind"]>([
  ["article:published_time", "published"],
  ["article:modified_time", "modified"],
  ["og:updated_time", "modified"],
  ["datepublished", "published"],
  ["datemodified", "modified"],
  ["dc.date.issued", "published"],
  ["dcterms.created", "published"],
  ["dcterms.modified", "modified"],
  ["dc.date", "date"],
  ["date", "date"],
]);

const timeKind = (time: Element): PageDate["kind"] => {
  const itemprop = (time.getAttribute("itemprop") ?? "").toLowerCase();
  return itemprop === "datemodified" ? "modified" : itemprop === "datepublished" ? "published" : "date";
};

/**
 * Where a `<time>` of the rendered page is the page's own: inside the article or main element
 * that holds the page's h1, or else the block around the h1 (two levels up: a header with
 * byline and date), or inside the page's `<main>`; outside navigation, sidebars and widgets.
 * Teasers beside the article ("More from this stream", a sidebar's latest stories) carry dates
 * of other pages.
 */
const articleRegions = (page: Page): Element[] => {
  const regions = elementsNamed(page, "main").filter((main) => !isInert(main));
  const h1 = page.main.pageHeading;
  if (!h1) return regions;
  const framing = ancestor(h1, (node) => node.localName === "article" || node.localName === "main");
  if (framing) return [framing, ...regions];
  let around: Element = h1;
  for (let level = 0; level < 2; level++) {
    const parent = around.parentElement;
    if (!parent || parent.localName === "body" || parent.localName === "html") break;
    around = parent;
  }
  return [around, ...regions];
};

/**
 * A `<time itemprop="datePublished">` (or dateModified) whose microdata item holds the main
 * content (half its words or more) dates the page, wherever in the item it stands: `001` sets
 * its post's date in an `<aside>` of its BlogPosting `<article>`. A teaser's item holds its own
 * story, not the page's content.
 */
const ofContentItem = (page: Page, time: Element): boolean => {
  if (timeKind(time) === "date") return false;
  const item = ancestor(time, (node) => node.hasAttribute("itemscope"));
  return item !== null && page.main.words > 0 && countWords(item.textContent ?? "") * 2 >= page.main.words;
};

/**
 * The page's own machine-readable published and modified dates, read once for publish-date and
 * freshness so that they agree: JSON-LD datePublished / dateCreated / uploadDate / dateModified
 * of the nodes that describe the page (not of comments, reviews or listed items), the Open Graph
 * article times and common date metas, and `<time datetime>` of the main content, of the article
 * that holds the page's h1 (articleRegions) or of the microdata item that holds the content
 * (`ofContentItem`), never of a sidebar or teaser, which are set aside in `others`. Only ISO
 * 8601 dates count: "May 6" in text is not machine-readable. Dates
 * before 1991 are placeholders and dropped; dates more than a day after the scan (a day allows
 * for time zones) are set aside in `future`: they come from templates or scheduled posts, and
 * counting them would make any page look fresh.
 */
export const pageDates = perPage((page: Page): PageDates => {
  const dates: PageDate[] = [];
  const future: PageDate[] = [];
  const others: PageDate[] = [];
  const unreadable: PageDate[] = [];
  const latest = page.scannedAt.getTime() + DAY_MS;
  const add = (into: PageDate[], raw: string | null | undefined, kind: PageDate["kind"], source: string) => {
    const date = parse(raw);
    if (!date) return;
    const entry = { date, kind, source, raw: raw?.trim() ?? "" };
    (date.getTime() > latest ? future : into).push(entry);
  };
  const { blocks } = jsonLd(page);
  for (const block of blocks) {
    const value = block.ok ? block.value : block.unwrapped;
    if (value === undefined) continue;
    for (const node of ownNodes(value)) {
      for (const [key, kind] of Object.entries(JSON_LD_KEYS)) {
        if (key in node) add(block.ok ? dates : unreadable, textOf(node[key]), kind, `JSON-LD ${key}`);
      }
    }
  }
  for (const meta of elementsNamed(page, "meta")) {
    // any of its keys: nytimes writes <meta property="article:published" itemprop="datePublished">
    const key = ["property", "name", "itemprop"]
      .map((attribute) => (meta.getAttribute(attribute) ?? "").trim().toLowerCase())
      .find((name) => META_KEYS.has(name));
    const kind = key ? META_KEYS.get(key) : undefined;
    if (key && kind) add(dates, meta.getAttribute("content"), kind, `<meta ${key}>`);
  }
  const regions = articleRegions(page);
  const keep = ancestorsOf(page.main.pageHeading);
  const { root, excludes } = page.main;
  const inMain = (time: Element): boolean => {
    if (!root.contains(time)) return false;
    for (let node: Element | null = time; node && node !== root; node = node.parentElement)
      if (excludes(node)) return false;
    return true;
  };
  const own = (time: Element): boolean =>
    regions.some(
      (region) => region.contains(time) && enclosingBoilerplate(time, { stop: region.parentElement, keep }) === null,
    ) ||
    inMain(time) ||
    ofContentItem(page, time);
  for (const time of elementsNamed(page, "time")) {
    if (isInert(time) || isHiddenByMarkup(time)) continue;
    add(own(time) ? dates : others, time.getAttribute("datetime"), timeKind(time), "<time datetime>");
  }
  // the <time>s of Readability's extraction (a DOM of its own), which may stand outside any article element
  if (root.ownerDocument !== page.doc) {
    for (const time of root.querySelectorAll("time")) {
      const raw = time.getAttribute("datetime");
      if (!dates.some((date) => date.raw === raw?.trim())) add(dates, raw, timeKind(time), "<time datetime>");
    }
  }
  const ownRaw = new Set(dates.map((date) => date.raw));
  return { dates, future, others: others.filter((date) => !ownRaw.has(date.raw)), unreadable };
});

/**
 * The page's publication date as the engines would take it: a stated published date (JSON-LD
 * datePublished or uploadDate, a published-time meta, microdata datePublished), else the date
 * its content shows (an article's `<time>`), else JSON-LD dateCreated.
 */
export const publishedDate = (dates: readonly PageDate[]): PageDate | undefined =>
  dates.find((date) => date.kind === "published") ??
  dates.find((date) => date.kind === "date") ??
  dates.find((date) => date.kind === "created");

const MONTHS = [
  ...["january", "february", "march", "april", "may", "june", "july", "august", "september"],
  ...["october", "november", "december"],
];
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const WRITTEN_DATES: ReadonlyArray<{ pattern: RegExp; read: (match: RegExpExecArray) => [number, number, number] }> = [
  // "May 6, 2019", "Sept. 12 2024"
  {
    pattern: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "i"),
    read: (m) => [Number(m[3]), monthOf(m[1] ?? ""), Number(m[2])],
  },
  // "6 May 2019"
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})\\b`, "i"),
    read: (m) => [Number(m[3]), monthOf(m[2] ?? ""), Number(m[1])],
  },
  // "2019年5月6日"
  {
    pattern: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/,
    read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])],
  },
  // "2019-05-06", "2019/05/06"
  { pattern: /\b(\d{4})[-/](\d{2})[-/](\d{2})\b/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
];

const monthOf = (name: string): number =>
  MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().slice(0, 3))) + 1;

/**
 * The first date the text writes out for a reader ("May 6, 2019", "6 May 2019", "2019年5月6日",
 * "2019-05-06"), as written and as an ISO day; null when it writes none that is a real day
 * between 1991 and a day after `latest`.
 */
export const writtenDate = (text: string, latest: Date): { written: string; iso: string } | null => {
  for (const { pattern, read } of WRITTEN_DATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const [year, month, day] = read(match);
    const time = Date.UTC(year, month - 1, day);
    const date = new Date(time);
    if (month < 1 || date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) continue;
    if (time < EARLIEST || time > latest.getTime() + DAY_MS) continue;
    return { written: match[0], iso: isoDay(date) };
  }
  return null;
};

// a byline's date sits near the top of the content: the first characters are read, not a long page's every date
const SHOWN_DATE_SPAN = 3_000;

// a headline's byline and dateline follow it within a few lines ("By Meg Wagner NEW YORK DAILY NEWS Dec 16, 2016 at 1:38 pm")
const BESIDE_HEADLINE_SPAN = 300;
// further on, after a lead image's caption and a standfirst, only a date set right after the byline is the page's
// (sandiegouniontribune.com's "By Jennifer Van Grove Aug. 27, 2019", 330 characters on; not a repository's "Latest commit … on Jul 7, 2020")
const BYLINE_SPAN = 600;
const AFTER_BYLINE = 60;

/**
 * The text that follows the page's own h1 in its DOM, up to `BESIDE_HEADLINE_SPAN` characters:
 * the byline and dateline a news page sets between its headline and its text, which Readability
 * leaves out of the main content.
 */
const besideHeadline = (page: Page, span = BESIDE_HEADLINE_SPAN): string => {
  const heading = page.main.pageHeading;
  if (!heading) return "";
  const title = readableText(heading);
  if (title === "") return "";
  for (let node = heading.parentElement; node; node = node.parentElement) {
    const text = readableText(node);
    const at = text.indexOf(title);
    if (at < 0) continue;
    const after = text.slice(at + title.length).trim();
    if (after.length >= span || node.localName === "body") return after.slice(0, span);
  }
  return "";
};

// the opening of the content's text by which it is found again in the page
const OPENING_KEY = 30;

/**
 * The text set just before the main content's first paragraph in the page's DOM, up to
 * `BESIDE_HEADLINE_SPAN` characters: where a page whose headline is no h1 (an h2 titling the
 * article, a site's logo as its only h1) sets its byline and dateline, between headline and text.
 */
const beforeOpening = (page: Page): string => {
  const first = [...page.main.root.querySelectorAll("p")]
    .map((paragraph) => readableText(paragraph))
    .find((text) => text.length >= OPENING_KEY);
  const key = first?.slice(0, OPENING_KEY);
  if (!key) return "";
  const paragraph = [...page.doc.querySelectorAll("p")].find((element) => readableText(element).startsWith(key));
  for (let node = paragraph?.parentElement ?? null; node; node = node.parentElement) {
    const text = readableText(node);
    const at = text.indexOf(key);
    if (at >= BESIDE_HEADLINE_SPAN || node.localName === "body")
      return text.slice(Math.max(0, at - BESIDE_HEADLINE_SPAN), at);
  }
  return "";
};

/**
 * The first date the page writes out for a reader (writtenDate): in its main content, else in
 * the byline and dateline beside its headline, else (a page with no h1 over its content) in the
 * lines just before its text; null when none shows one.
 */
export const shownDate = (page: Page): { written: string; iso: string } | null =>
  writtenDate(readableText(page.main.root).slice(0, SHOWN_DATE_SPAN), page.scannedAt) ??
  writtenDate(besideHeadline(page), page.scannedAt) ??
  writtenDate(afterByline(page), page.scannedAt) ??
  (page.main.pageHeading ? null : writtenDate(beforeOpening(page), page.scannedAt));

/** The words right after the first byline ("By Jane Doe") in the text that follows the page's h1, or "". */
const afterByline = (page: Page): string => {
  const after = besideHeadline(page, BYLINE_SPAN);
  const byline = /(?:^|\s)(?:By|by|BY|Par|Por|Von|Door|Di)\s+\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}/u.exec(
    after,
  );
  // from the byline on: its name may run into the date's month ("By Jennifer Van Grove Aug. 27, 2019")
  return byline ? after.slice(byline.index, byline.index + byline[0].length + AFTER_BYLINE) : "";
};

/** "2026-03-01" */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A sentence naming the future dates set aside, or "" when there were none. */
export const futureNote = (future: readonly PageDate[]): string => {
  const [first] = future;
  if (!first) return "";
  const more = future.length > 1 ? ` and ${future.length - 1} more` : "";
  return ` A date more than a day after the scan was ignored (${isoDay(first.date)} in ${first.source}${more}).`;
};

/** A sentence naming the page's `<time>` dates that were not counted as its own, or "". */
export const othersNote = (others: readonly PageDate[]): string => {
  if (others.length === 0) return "";
  const newest = others.reduce((best, date) => (date.date > best.date ? date : best));
  return ` Not counted, as not the page's own: ${others.length} <time> date${others.length === 1 ? "" : "s"} of teasers, sidebars or widgets beside the content (the newest ${isoDay(newest.date)}).`;
};

/** A sentence naming the dates of JSON-LD blocks that do not parse, or "". */
export const unreadableDatesNote = (unreadable: readonly PageDate[]): string => {
  const [first] = unreadable;
  if (!first) return "";
  return ` ${first.source.replace("JSON-LD ", "")} ${isoDay(first.date)} is in a JSON-LD block that does not parse, so engines cannot read it.`;
};
