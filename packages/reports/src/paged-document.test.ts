import type { AuditExport } from "./audit-export";
import { type AuditExportFormat, renderAuditExport, streamAuditExport } from "./formats";
import type { PageReport } from "./page-report";
import type { PageReader } from "./paged-document";
import { auditExport, checkResult, pageReport, siteReport } from "./testing";

const TOOL = { name: "aeo-scan", version: "1.2.3" };

/**
 * The pages as a database reads them for each pass: anew, and without their checks when the
 * pass says it does not read them. `reads` counts the pages handed out.
 */
const readerOf = (pages: readonly PageReport[]) => {
  const counter = { passes: [] as boolean[], reads: 0 };
  const read: PageReader = async function* ({ checks }) {
    counter.passes.push(checks);
    for (const page of pages) {
      counter.reads += 1;
      yield checks ? page : { ...page, checks: [] };
    }
  };
  return { read, counter };
};

const streamed = async (format: AuditExportFormat, audit: AuditExport, locations: "url" | "github" = "url") => {
  const { read } = readerOf(audit.pages);
  const parts: string[] = [];
  for await (const part of streamAuditExport(format, { ...audit, pages: read }, TOOL, { locations })) parts.push(part);
  return parts;
};

/** Many pages: judged ones with passing, warning and failing checks, some failed, one URL twice. */
const manyPages = (count: number): PageReport[] =>
  Array.from({ length: count }, (_, i) => {
    const url = `https://example.com/p/${i % 97 === 96 ? 0 : i}`;
    if (i % 13 === 5)
      return pageReport({
        id: null,
        url,
        finalUrl: null,
        status: "failed",
        grade: null,
        scores: null,
        checks: [],
        error: { code: "http_503", message: `The page answered 503 (${i})` },
      });
    return pageReport({
      id: null,
      url,
      finalUrl: url,
      checks: [
        ...pageReport().checks,
        ...(i > 100 ? [checkResult({ id: `late-${i % 3}`, status: i % 2 ? "fail" : "warn", category: "aeo" })] : []),
      ],
    });
  });

const variants: Array<[string, AuditExport]> = [
  ["two judged pages and a failed one", auditExport()],
  ["no page", auditExport({ pages: [] })],
  ["no failed page", auditExport({ pages: auditExport().pages.filter((page) => page.status !== "failed") })],
  ["no site check", auditExport({ report: siteReport({ site_checks: [] }) })],
  ["300 pages, rules first met late", auditExport({ pages: manyPages(300) })],
];

describe("an audit's export written as it goes", () => {
  it.each(variants)("SARIF of %s is the string form, byte for byte, in both locations", async (_, audit) => {
    for (const locations of ["url", "github"] as const) {
      const whole = renderAuditExport("sarif", audit, TOOL, { locations });
      expect((await streamed("sarif", audit, locations)).join("")).toBe(whole);
      // the string form is the log as JSON.stringify lays it out
      expect(`${JSON.stringify(JSON.parse(whole), null, 2)}\n`).toBe(whole);
    }
  });

  it.each(variants)("JUnit XML of %s is the string form, byte for byte", async (_, audit) => {
    expect((await streamed("junit", audit)).join("")).toBe(renderAuditExport("junit", audit, TOOL));
  });

  it("comes in parts no larger than a page's, however many pages there are, one per page and pass", async () => {
    const audit = auditExport({ pages: manyPages(300) });
    for (const format of ["sarif", "junit"] as const) {
      const parts = await streamed(format, audit);
      const whole = parts.join("");
      expect(parts.length).toBeGreaterThan(format === "sarif" ? 4 * 300 : 300);
      // the largest part: the head (rules, or the site's suites), far from the whole
      expect(Math.max(...parts.map((part) => part.length))).toBeLessThan(whole.length / 50);
    }
  });

  it("reads the pages once per pass, their checks only in the passes that use them", async () => {
    const audit = auditExport();
    const sarif = readerOf(audit.pages);
    for await (const _ of streamAuditExport("sarif", { ...audit, pages: sarif.read }, TOOL));
    // rules; notifications; artifacts; results
    expect(sarif.counter.passes).toEqual([true, false, false, true]);
    const junit = readerOf(audit.pages);
    for await (const _ of streamAuditExport("junit", { ...audit, pages: junit.read }, TOOL));
    expect(junit.counter.passes).toEqual([true]);
  });

  it("stops reading pages when it is returned early, as when the client goes away", async () => {
    const pages = manyPages(300);
    for (const format of ["sarif", "junit"] as const) {
      const { read, counter } = readerOf(pages);
      const parts = streamAuditExport(format, { ...auditExport(), pages: read }, TOOL);
      for (let i = 0; i < 5; i++) await parts.next();
      await parts.return(undefined);
      const readSoFar = counter.reads;
      expect(await parts.next()).toEqual({ done: true, value: undefined });
      expect(counter.reads).toBe(readSoFar);
      // a part per page, even an empty one (SARIF's first pass writes nothing): it stops within a few pages
      expect(readSoFar).toBeGreaterThan(0);
      expect(readSoFar).toBeLessThanOrEqual(5);
    }
  });

  it("throws where the reader does, having written what came before", async () => {
    const audit = auditExport({ pages: manyPages(50) });
    const failing: PageReader = async function* () {
      yield* audit.pages.slice(0, 10);
      throw new Error("the database went away");
    };
    const parts: string[] = [];
    await expect(async () => {
      for await (const part of streamAuditExport("junit", { ...audit, pages: failing }, TOOL)) parts.push(part);
    }).rejects.toThrow("the database went away");
    expect(parts.join("")).toMatch(/^<\?xml[\s\S]*<\/testsuite>\n$/);
    expect(parts.join("")).not.toContain("</testsuites>");
  });
});
