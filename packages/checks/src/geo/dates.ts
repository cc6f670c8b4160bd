import { jsonLd, textOf } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { elementsNamed } from "../seo/dom";

export type PageDate = { date: Date; source: string };

const DAY_MS = 24 * 60 * 60 * 1000;

const parse = (raw: string | null | undefined): Date | null => {
  if (!raw) return null;
  const trimmed = raw.trim();
  // machine-readable dates only: ISO 8601 (a bare year-month-day at least)
  if (!/^\d{4}-\d{2}(-\d{2})?/.test(trimmed)) return null;
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? null : new Date(time);
};

const META_KEYS = [
  "article:published_time",
  "article:modified_time",
  "og:updated_time",
  "datepublished",
  "datemodified",
  "date",
  "dc.date",
  "dc.date.issued",
  "dcterms.modified",
  "dcterms.created",
];

/**
 * Machine-readable published or modified dates of the page: JSON-LD datePublished /
 * dateModified / uploadDate, Open Graph article times and common date metas, and
 * `<time datetime>`. Dates more than a day after the scan are ignored (clock skew aside, a
 * future date is a template error, and counting it would make any page look fresh).
 */
export const pageDates = perPage((page: Page): PageDate[] => {
  const found: PageDate[] = [];
  const add = (raw: string | null | undefined, source: string) => {
    const date = parse(raw);
    if (date && date.getTime() <= page.scannedAt.getTime() + DAY_MS) found.push({ date, source });
  };
  for (const node of jsonLd(page).nodes) {
    for (const key of ["datePublished", "dateModified", "uploadDate", "dateCreated"])
      add(textOf(node[key]), `JSON-LD ${key}`);
  }
  for (const meta of elementsNamed(page, "meta")) {
    const key = (meta.getAttribute("property") ?? meta.getAttribute("name") ?? meta.getAttribute("itemprop") ?? "")
      .trim()
      .toLowerCase();
    if (META_KEYS.includes(key)) add(meta.getAttribute("content"), `<meta ${key}>`);
  }
  for (const time of elementsNamed(page, "time")) add(time.getAttribute("datetime"), "<time datetime>");
  return found;
});
