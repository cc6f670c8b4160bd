import { waitInWords } from "@scan/client";

/** How dates, durations and numbers read on the dashboard: the user's locale, their time zone. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const number = new Intl.NumberFormat();

export const formatDateTime = (iso: string | null | undefined): string =>
  iso ? dateTime.format(new Date(iso)) : "never";

export const formatDate = (iso: string | null | undefined): string => (iso ? date.format(new Date(iso)) : "never");

export const formatNumber = (value: number): string => number.format(value);

export const formatMs = (ms: number | null | undefined): string => {
  if (ms === null || ms === undefined) return "–";
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
};

/** "in about 12 minutes", "in a few seconds": how long until `iso`. */
export const formatUntil = (iso: string | number): string => {
  const seconds = Math.max(
    0,
    Math.round(((typeof iso === "number" ? iso * 1_000 : Date.parse(iso)) - Date.now()) / 1_000),
  );
  if (seconds < 48 * 3_600) return `in ${waitInWords(seconds)}`;
  return `in ${Math.round(seconds / 86_400)} days`;
};

/**
 * What a site is called on the dashboard: its name, except that a name that is only the host
 * of a site on another port than the scheme's reads with the port (two sites of one host differ by it).
 */
export const siteTitle = (site: { name: string; domain: string; url: string }): string => {
  if (site.name !== site.domain) return site.name;
  const { port, host } = new URL(site.url);
  return port ? host : site.name;
};

/**
 * One entry a line (and between commas unless `commas` is false: a brand's name may hold one),
 * blanks dropped: a list as typed, as the API takes it.
 */
export const linesOf = (text: string, { commas = true }: { commas?: boolean } = {}): string[] =>
  text
    .split(commas ? /[\n,]+/ : /\n+/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
