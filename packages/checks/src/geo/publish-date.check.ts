import { defineCheck } from "../check";
import { readableText } from "../lib/element";
import { judgesContent } from "../lib/placeholder";
import { futureNote, isoDay, othersNote, type PageDate, pageDates, shownDate, unreadableDatesNote } from "./dates";

const dated = (date: PageDate): string => `${isoDay(date.date)} (${date.source})`;

/**
 * Reads the page's own machine-readable published or modified date (where dates are read, and
 * which are the page's own and which are ignored: dates.ts; a sidebar's or a teaser's `<time>`
 * is not the page's date). Reports the published and the modified date when the page states
 * both, and says which dates were set aside.
 */
export const publishDate = judgesContent(
  defineCheck({
    id: "publish-date",
    category: "geo",
    severity: "info",
    maxScore: 2,
    quick: false,
    title: "Page states its date",
    run: (page) => {
      const { dates, future, others, unreadable } = pageDates(page);
      const notes = `${futureNote(future)}${othersNote(others)}${unreadableDatesNote(unreadable)}`;
      const published = dates.find((date) => date.kind === "published");
      const created = published ? undefined : dates.find((date) => date.kind === "created");
      const modified = dates.find((date) => date.kind === "modified");
      const first = published ?? modified ?? dates.find((date) => date.kind === "date") ?? created ?? dates[0];
      if (first) {
        const stated = [
          published ? `published ${dated(published)}` : null,
          created ? `created ${dated(created)}` : null,
          modified ? `modified ${dated(modified)}` : null,
        ].filter((part): part is string => part !== null);
        return {
          status: "pass",
          description: `The page states its date: ${stated.length > 0 ? stated.join(", ") : dated(first)}.${notes}`,
          evidence: dates.map((date) => date.raw),
        };
      }
      const heading = page.main.heading ? readableText(page.main.heading) : "";
      const shown = shownDate(page);
      const markUp = shown
        ? `mark the date it shows, "${shown.written}", up as <time datetime="${shown.iso}">${shown.written}</time>`
        : `show the date it was first published${heading ? ` under the h1 "${heading.slice(0, 60)}"` : ""} as <time datetime="YYYY-MM-DD">: the page shows no date, so the site's owner must supply it`;
      const fixJsonLd = `${unreadable.length > 0 ? "Make the JSON-LD block that holds the date parse (remove its <![CDATA[ wrapper), or add" : "Add"} datePublished${shown ? ` ("${shown.iso}")` : ""} and dateModified (the day of the last real change) to the page's JSON-LD`;
      return {
        status: "fail",
        description: `The page has no machine-readable published or modified date of its own (JSON-LD datePublished/dateModified, article:published_time, <time datetime> in its content).${shown ? ` It shows the date "${shown.written}" as plain text.` : ""}${notes}`,
        fix: `${fixJsonLd}, and ${markUp}${others.length > 0 ? ` (the <time> ${isoDay((others[0] as PageDate).date)} beside the content dates something else)` : ""}.`,
        evidence: [...(shown ? [shown.written] : []), ...[...others, ...future, ...unreadable].map((date) => date.raw)],
      };
    },
  }),
);
