import { defineCheck } from "../check";
import { futureNote, isoDay, type PageDate, pageDates } from "./dates";

const dated = (date: PageDate): string => `${isoDay(date.date)} (${date.source})`;

/**
 * A machine-readable published or modified date (where dates are read, and which are ignored:
 * dates.ts). Reports the published and the modified date when the page states both.
 */
export const publishDate = defineCheck({
  id: "publish-date",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Page states its date",
  run: (page) => {
    const { dates, future } = pageDates(page);
    const published = dates.find((date) => date.kind === "published");
    const modified = dates.find((date) => date.kind === "modified");
    const first = published ?? modified ?? dates[0];
    if (first) {
      const stated = [
        published ? `published ${dated(published)}` : null,
        modified ? `modified ${dated(modified)}` : null,
      ].filter((part): part is string => part !== null);
      return {
        status: "pass",
        description: `The page states its date: ${stated.length > 0 ? stated.join(", ") : dated(first)}.${futureNote(future)}`,
      };
    }
    return {
      status: "fail",
      description: `The page has no machine-readable published or modified date (JSON-LD datePublished/dateModified, article:published_time, <time datetime>).${futureNote(future)}`,
      fix: 'Add datePublished and dateModified to the page\'s JSON-LD, or mark the visible date up as <time datetime="2026-01-31">.',
    };
  },
});
