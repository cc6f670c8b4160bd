import { defineCheck } from "../check";
import { newsArticle } from "../lib/page-kind";
import { judgesContent } from "../lib/placeholder";
import { futureNote, isoDay, othersNote, pageDates, publishedDate, unreadableDatesNote } from "./dates";

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
 * Reads the page's own newest date (dates.ts: its JSON-LD and meta dates, and the `<time>`s of
 * its main content or of the article that holds its h1, never a sidebar's or a teaser's)
 * against the scan time: within 12 calendar months passes, 12 to 24 warns, older fails; no
 * date skips (publish-date judges that). A news article with a publication date (or the
 * undated-kind date of its dateline) passes
 * whatever its age: a report's date says when it was news, and an old report is a dated record,
 * not stale content. The fix never advises changing a date alone: Google's guidance on dates
 * asks for a date that reflects a real update, and a date moved without new content is the
 * fake freshness it warns against. A CMS that stamps dateModified on every request makes any
 * page look fresh; that cannot be told from a single scan.
 */
export const freshness = judgesContent(
  defineCheck({
    id: "freshness",
    category: "geo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Content is recent",
    run: (page) => {
      const { dates, future, others, unreadable } = pageDates(page);
      const notes = `${futureNote(future)}${othersNote(others)}${unreadableDatesNote(unreadable)}`;
      const newest = dates.reduce<(typeof dates)[number] | null>(
        (best, date) => (best === null || date.date > best.date ? date : best),
        null,
      );
      if (!newest) {
        return {
          status: "skip",
          description: `The page states no date of its own to judge.${notes}`,
          evidence: [...others, ...future, ...unreadable].map((date) => date.raw),
        };
      }
      const evidence = [newest.raw, newest.source];
      const stated = `${isoDay(newest.date)} (${newest.source}), ${age(newest.date, page.scannedAt)} before the scan`;
      const news = newsArticle(page);
      // the report's publication date, else the date of its dateline (a <time> that does not say which)
      const dated = publishedDate(dates);
      const published = dated && dated.kind !== "date" ? dated : undefined;
      if (news && dated) {
        return {
          status: "pass",
          description: `A dated news report (${news}), ${published ? "published" : "dated"} ${isoDay(dated.date)} (${dated.source}); its newest date is ${stated}. A report's date says when it was news, not that it is stale.${notes}`,
          evidence,
        };
      }
      const description = `The page's newest date is ${stated}.${notes}`;
      if (newest.date >= monthsBefore(page.scannedAt, 12)) return { status: "pass", description, evidence };
      return {
        status: newest.date >= monthsBefore(page.scannedAt, 24) ? "warn" : "fail",
        description,
        fix: `Review what the page says against today: if facts have changed since ${isoDay(newest.date)}, update the content, then set dateModified (and any visible "updated" date) to the day of that update. Do not change the date without changing the content: Google's guidance on dates asks for a date that reflects a real update, and treats a date moved alone as misleading.`,
        evidence,
      };
    },
  }),
);
