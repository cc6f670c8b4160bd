import { defineCheck } from "../check";
import { pageDates } from "./dates";

const day = (date: Date) => date.toISOString().slice(0, 10);

/** A machine-readable published or modified date (see dates.ts for where dates are read). */
export const publishDate = defineCheck({
  id: "publish-date",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Page states its date",
  run: (page) => {
    const dates = pageDates(page);
    const [first] = dates;
    if (first) {
      return { status: "pass", description: `The page states a date: ${day(first.date)} (${first.source}).` };
    }
    return {
      status: "fail",
      description: "The page has no machine-readable published or modified date.",
      fix: 'Add datePublished and dateModified to the page\'s JSON-LD, or <time datetime="2026-01-31"> next to the visible date.',
    };
  },
});

const MONTH_MS = 30.44 * 24 * 60 * 60 * 1000;

/** The newest stated date, against the scan time: within 12 months passes, 12 to 24 warns. */
export const freshness = defineCheck({
  id: "freshness",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content is recent",
  run: (page) => {
    const dates = pageDates(page);
    if (dates.length === 0) return { status: "skip", description: "The page states no date to judge." };
    const newest = dates.reduce((a, b) => (b.date > a.date ? b : a));
    const months = Math.max(0, (page.scannedAt.getTime() - newest.date.getTime()) / MONTH_MS);
    const description = `The newest date on the page is ${day(newest.date)} (${newest.source}), ${Math.floor(months)} months before the scan.`;
    if (months <= 12) return { status: "pass", description };
    return {
      status: months <= 24 ? "warn" : "fail",
      description,
      fix: "Review the content, update what changed, and set dateModified to the review date; answer engines prefer current sources.",
    };
  },
});
