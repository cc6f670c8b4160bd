import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TextResource } from "@scan/contract";
import type { CheckDefinition, Verdict } from "../check";
import { FIXED_SCAN_TIME, sharedCorpus, snapshotOf } from "../fixture";
import { preparePage } from "../page";
import { canonical } from "./canonical.check";
import { crawlableAnchors } from "./crawlable-anchors.check";
import { hreflang } from "./hreflang.check";
import { httpStatus } from "./http-status.check";
import { imageAlt } from "./image-alt.check";
import { indexable } from "./indexable.check";
import { linkText } from "./link-text.check";
import { metaDescription } from "./meta-description.check";
import { robotsTxt } from "./robots-txt.check";
import { title } from "./title.check";

/**
 * Our SEO checks against Lighthouse 12.8.2 on the real pages of both shared corpora (67 in
 * ../shared/corpus, 101 in ../shared/corpus-parser, which no rule was written against), judged on the
 * static HTML (Lighthouse saw the DOM after scripts ran). Agreement: Lighthouse pass ↔ our pass;
 * Lighthouse fail ↔ our warn or fail; not applicable ↔ anything. Every disagreement must be
 * listed in EXCEPTIONS with its reason, and every exception must still be a disagreement.
 */

const ORIGIN = "http://127.0.0.1:8080";

// our check ↔ the Lighthouse audit it overlaps (docs/spec/checks.md)
const PAIRS: ReadonlyArray<[CheckDefinition, string]> = [
  [httpStatus, "http-status-code"],
  [title, "document-title"],
  [metaDescription, "meta-description"],
  [indexable, "is-crawlable"],
  [canonical, "canonical"],
  [imageAlt, "image-alt"],
  [linkText, "link-text"],
  [crawlableAnchors, "crawlable-anchors"],
  [hreflang, "hreflang"],
  [robotsTxt, "robots-txt"],
];

// Chrome's HTML parser closes <head> at the first element that cannot be in it (an <iframe>, a
// stray text node) and moves the rest, this meta description included, into <body>, where
// Lighthouse (`head meta`) does not look. linkedom, which parses the file here, keeps it in the
// head. In a real scan the rendered HTML is Chrome's own serialisation, so the check sees
// Chrome's tree and agrees.
const META_MOVED_TO_BODY =
  "Chrome's parser moves the meta description into <body> (head closed early by invalid markup); linkedom parsing the static file keeps it in <head>";

/** Known, explained disagreements, keyed "page audit". */
const EXCEPTIONS: Record<string, string> = {
  "bbc-1 meta-description": `${META_MOVED_TO_BODY} (an <iframe> inside <head>)`,
  "breitbart meta-description": `${META_MOVED_TO_BODY} (an <iframe> inside <head>)`,
  "herald-sun-1 meta-description":
    "a script in <head> document.write()s text there, which closes the head in Chrome and moves the meta description into <body>; without running scripts it stays in <head>",
  "links-in-tables link-text":
    'deliberate: docs/spec/checks.md requires Dutch generic texts; "Meer informatie" (more information) is generic, Lighthouse has no Dutch list',
};

/**
 * Known, explained disagreements on the second corpus (../shared/corpus-parser: pages no rule
 * was written against), keyed "page audit".
 */
const PARSER_EXCEPTIONS: Record<string, string> = {
  "www.littlethings.com meta-description": `${META_MOVED_TO_BODY} (an <iframe> inside <head>)`,
  "ici.radio-canada.ca link-text":
    'deliberate: docs/checks.md lists French generic texts; "En savoir plus" (learn more) is generic, Lighthouse 12.8 has no French list',
};

type LighthouseScore = 0 | 1 | null;

const agrees = (ours: Verdict["status"], lighthouse: LighthouseScore, audit: string): boolean => {
  if (lighthouse === null) return true;
  if (lighthouse === 0) return ours === "warn" || ours === "fail";
  // docs/spec/checks.md skips a page without hreflang links, which Lighthouse scores as a pass
  return ours === "pass" || (audit === "hreflang" && ours === "skip");
};

const noRobotsTxt: TextResource = {
  url: `${ORIGIN}/robots.txt`,
  status: 404,
  contentType: "text/plain",
  body: "not found",
  truncated: false,
  error: null,
};

type Row = { page: string; audit: string; ours: Verdict["status"]; lighthouse: LighthouseScore; description: string };

/** Every page of a corpus judged by the paired checks, beside Lighthouse's score. */
const judgeCorpus = (dir: string): { pages: string[]; lighthouse: Record<string, unknown>; rows: Row[] } => {
  const lighthouse: Record<string, Record<string, LighthouseScore>> = JSON.parse(
    readFileSync(join(dir, "lighthouse-seo.json"), "utf8"),
  );
  const pages = readdirSync(join(dir, "pages")).sort();
  const rows = pages.flatMap((name) => {
    const html = readFileSync(join(dir, "pages", name, "index.html"), "utf8");
    const url = `${ORIGIN}/${name}/`;
    const page = preparePage(
      snapshotOf(html, { requestedUrl: url, finalUrl: url, robotsTxt: noRobotsTxt }),
      FIXED_SCAN_TIME,
    );
    return PAIRS.map(([check, audit]): Row => {
      const verdict = check.run(page);
      const score = lighthouse[name]?.[audit];
      return { page: name, audit, ours: verdict.status, lighthouse: score ?? null, description: verdict.description };
    });
  });
  return { pages, lighthouse, rows };
};

const report = (rows: Row[]) => {
  const summary = PAIRS.map(([, audit]) => {
    const own = rows.filter((row) => row.audit === audit);
    return `${audit}: ${own.filter((row) => agrees(row.ours, row.lighthouse, audit)).length}/${own.length}`;
  });
  const details = rows
    .filter((row) => !agrees(row.ours, row.lighthouse, row.audit))
    .map((row) => `${row.page} ${row.audit}: ours ${row.ours}, Lighthouse ${row.lighthouse} — ${row.description}`);
  const whenNotApplicable = PAIRS.map(([, audit]) => {
    const counts = new Map<string, number>();
    for (const row of rows.filter((r) => r.audit === audit && r.lighthouse === null)) {
      counts.set(row.ours, (counts.get(row.ours) ?? 0) + 1);
    }
    return `${audit} (Lighthouse n/a): ${[...counts].map(([status, n]) => `${status} ${n}`).join(", ") || "-"}`;
  });
  process.stdout.write(`${summary.join("\n")}\n\n${whenNotApplicable.join("\n")}\n\n${details.join("\n")}\n`);
};

describe.each([
  { corpus: "corpus" as const, size: 67, exceptions: EXCEPTIONS },
  { corpus: "corpus-parser" as const, size: 101, exceptions: PARSER_EXCEPTIONS },
])("agreement with Lighthouse on the real pages of ../shared/$corpus", ({ corpus, size, exceptions }) => {
  const { pages, lighthouse, rows } = judgeCorpus(sharedCorpus(corpus));

  it("covers every page of the corpus", () => {
    expect(pages).toHaveLength(size);
    expect(Object.keys(lighthouse).sort()).toEqual(pages);
  });

  it("agrees everywhere except the documented exceptions", () => {
    const disagreements = rows
      .filter((row) => !agrees(row.ours, row.lighthouse, row.audit))
      .map((row) => `${row.page} ${row.audit}`);
    const unexplained = disagreements.filter((key) => !(key in exceptions));
    const stale = Object.keys(exceptions).filter((key) => !disagreements.includes(key));
    if (process.env.LIGHTHOUSE_AGREEMENT_REPORT) report(rows);
    expect(unexplained).toEqual([]);
    expect(stale).toEqual([]);
  });
});
