import { defineCheck } from "../check";
import { futureNote, isoDay, pageDates } from "./dates";

/** The date `months` calendar months before `date` (UTC). */
const monthsBefore = (date: Date, months: number): Date => {
  const earlier = new Date(date.getTime());
  earlier.setUTCMonth(earlier.getUTCMonth() - months);
  return earlier;
};

const age = (from: Date, to: Date): string => {
  const days = Math.max(0, Math.floor((to.getTime() - from.getTime()) / (24 * 60 * 60 * 1000)));
  if (days < 60) return `${days} day${days === 1 ? "" : "s"}`;
  const months = Math.floor(days / 30.44);
  if (months < 24) return `${months} months`;
  return `${Math.floor(months / 12)} years`;
};

/**
 * The newest machine-readable date of the page (published or modified; dates.ts) against the
 * scan time: within 12 calendar months passes, 12 to 24 warns, older fails; no date skips
 * (publish-date judges that). A CMS that stamps dateModified on every request makes any page
 * look fresh; that cannot be told from a single scan.
 */
export const freshness = defineCheck({
  id: "freshness",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Content is recent",
  run: (page) => {
    const { dates, future } = pageDates(page);
    const newest = dates.reduce<(typeof dates)[number] | null>(
      (best, date) => (best === null || date.date > best.date ? date : best),
      null,
    );
    if (!newest) return { status: "skip", description: `The page states no date to judge.${futureNote(future)}` };
    const description = `The newest date on the page is ${isoDay(newest.date)} (${newest.source}), ${age(newest.date, page.scannedAt)} before the scan.${futureNote(future)}`;
    if (newest.date >= monthsBefore(page.scannedAt, 12)) return { status: "pass", description };
    return {
      status: newest.date >= monthsBefore(page.scannedAt, 24) ? "warn" : "fail",
      description,
      fix: "Review the content, update what changed and set dateModified (and the visible date) to the review date; answer engines favour current sources.",
    };
  },
});
