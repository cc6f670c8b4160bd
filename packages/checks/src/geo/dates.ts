import { jsonLd, textOf } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { elementsNamed, isInert } from "../seo/dom";

export type PageDate = { date: Date; kind: "published" | "modified" | "date"; source: string };

export type PageDates = {
  /** the usable dates, in the order found (JSON-LD, then meta, then `<time>`) */
  dates: readonly PageDate[];
  /** dates more than a day after the scan, which no page can truly carry */
  future: readonly PageDate[];
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
  dateCreated: "published",
  uploadDate: "published",
  dateModified: "modified",
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

/**
 * The machine-readable published and modified dates of the page, read once for publish-date
 * and freshness so that they agree: JSON-LD datePublished / dateCreated / uploadDate /
 * dateModified (any node, @graph included), the Open Graph article times and common date
 * metas, and `<time datetime>`. Only ISO 8601 dates count: "May 6" in text is not
 * machine-readable. Dates before 1991 are placeholders and dropped; dates more than a day
 * after the scan (a day allows for time zones) are set aside in `future`: they come from
 * templates or scheduled posts, and counting them would make any page look fresh.
 */
export const pageDates = perPage((page: Page): PageDates => {
  const dates: PageDate[] = [];
  const future: PageDate[] = [];
  const latest = page.scannedAt.getTime() + DAY_MS;
  const add = (raw: string | null | undefined, kind: PageDate["kind"], source: string) => {
    const date = parse(raw);
    if (!date) return;
    (date.getTime() > latest ? future : dates).push({ date, kind, source });
  };
  for (const node of jsonLd(page).nodes) {
    for (const [key, kind] of Object.entries(JSON_LD_KEYS)) {
      if (key in node) add(textOf(node[key]), kind, `JSON-LD ${key}`);
    }
  }
  for (const meta of elementsNamed(page, "meta")) {
    const key = (meta.getAttribute("property") ?? meta.getAttribute("name") ?? meta.getAttribute("itemprop") ?? "")
      .trim()
      .toLowerCase();
    const kind = META_KEYS.get(key);
    if (kind) add(meta.getAttribute("content"), kind, `<meta ${key}>`);
  }
  for (const time of elementsNamed(page, "time")) {
    if (isInert(time)) continue;
    const itemprop = (time.getAttribute("itemprop") ?? "").toLowerCase();
    const kind = itemprop === "datemodified" ? "modified" : itemprop === "datepublished" ? "published" : "date";
    add(time.getAttribute("datetime"), kind, "<time datetime>");
  }
  return { dates, future };
});

/** "2026-03-01" */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A sentence naming the future dates set aside, or "" when there were none. */
export const futureNote = (future: readonly PageDate[]): string => {
  const [first] = future;
  if (!first) return "";
  const more = future.length > 1 ? ` and ${future.length - 1} more` : "";
  return ` A date more than a day after the scan was ignored (${isoDay(first.date)} in ${first.source}${more}).`;
};
