import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type AgenticSite, allCorpusSites, NOT_FOUND, serveSite } from "./support/agentic-sites";
import { loopbackScanner } from "./support/loopback-scanner";

/**
 * This service's render-time agentic verdicts against Lighthouse 13.5's on the real pages of both
 * shared corpora (docs/reports/lighthouse-agentic.json holds Lighthouse's scores only, written by
 * scripts/lighthouse-agentic.ts; the pages are read from ../shared): each page served over
 * loopback and scanned in full by the scanner in real Chromium with WebMCP enabled, as the worker
 * scans. Outcomes as in lighthouse-agentic-render-agreement.test.ts. The site files (llms-txt,
 * ard-schema) of the same pages are compared browser-free in lighthouse-agentic-agreement.test.ts.
 *
 * A full scan of a real page takes one to two seconds here, so by default a fixed sample is
 * scanned: every SAMPLE_STRIDE-th page (10 pages: axe passes and failures, bare forms, no forms).
 * AGENTIC_CORPUS=all scans all 168 pages, which is how the figures in
 * docs/reports/lighthouse-agentic-corpus.md were made. Every verdict must agree but CLS, which
 * depends on the render (CLS_DISAGREEING_AT_MOST).
 */

type Outcome = "pass" | "fail" | "n/a";
const AUDITS = [
  "agent-accessibility-tree",
  "cumulative-layout-shift",
  "webmcp-form-coverage",
  "webmcp-schema-validity",
] as const;
type Audit = (typeof AUDITS)[number];

/**
 * Cumulative layout shift on real pages depends on the render: where scripts move content while
 * the page loads, the sum changes with when the shifts land, from one run to the next on both
 * sides (in two full runs each, Lighthouse changed its verdict on four pages and this scan on
 * six, one of them measuring 0.41 once and no shift the next time), and with the viewport and
 * styles (layout-shift.check.ts; docs/reports/lighthouse-agentic-corpus.md). So CLS is not held
 * page by page here (the fixture pages hold it, in lighthouse-agentic-render-agreement.test.ts):
 * at most this share of the scanned pages may disagree.
 */
const CLS_DISAGREEING_AT_MOST = 0.05;

const SAMPLE_STRIDE = 17;

const report = JSON.parse(readFileSync(join(__dirname, "../docs/reports/lighthouse-agentic.json"), "utf8")) as {
  pages: Record<string, Partial<Record<Audit | "webmcp-registered-tools", number | null>>>;
};

const lighthouseOutcome = (score: number | null): Outcome => (score === null ? "n/a" : score >= 0.9 ? "pass" : "fail");
const ourOutcome = (status: string): Outcome => (status === "skip" ? "n/a" : status === "pass" ? "pass" : "fail");

const sites = allCorpusSites();
const chosen =
  process.env.AGENTIC_CORPUS === "all" ? sites : sites.filter((_site, index) => index % SAMPLE_STRIDE === 0);

/** every corpus page at `/<name>/` of one loopback origin, as the corpus server serves them */
const corpusOrigin: AgenticSite = {
  id: "corpora",
  pagePath: "/",
  answer: (path) => {
    const site = sites.find((candidate) => candidate.pagePath === path);
    return site ? site.answer(path) : NOT_FOUND;
  },
};

describe("agreement with Lighthouse 13.5's render-time agentic audits on the shared corpora", () => {
  jest.setTimeout(600_000);

  it("has Lighthouse's verdicts for every page of both corpora", () => {
    expect(sites.length).toBe(168);
    for (const site of sites) expect(report.pages[site.id]?.["agent-accessibility-tree"]).toBeDefined();
  });

  it("agrees on every scanned page and audit but the listed exceptions", async () => {
    const served = await serveSite(corpusOrigin);
    const scanner = loopbackScanner(served.origin, 30_000);
    const disagreements: string[] = [];
    const perAudit = new Map<Audit, { agreed: number; total: number }>(
      AUDITS.map((audit) => [audit, { agreed: 0, total: 0 }]),
    );
    try {
      for (const site of chosen) {
        const scanned = await scanner.scan({ url: `${served.origin}${site.pagePath}`, mode: "full" });
        const scores = report.pages[site.id] ?? {};
        expect([site.id, lighthouseOutcome(scores["webmcp-registered-tools"] ?? null)]).toEqual([
          site.id,
          scanned.snapshot.agent?.webmcp?.supported ? "pass" : "n/a",
        ]);
        for (const audit of AUDITS) {
          const check = scanned.outcome.checks.find((result) => result.id === audit);
          if (!check) throw new Error(`${site.id}: no ${audit} check in a full scan`);
          const lighthouse = lighthouseOutcome(scores[audit] ?? null);
          const tally = perAudit.get(audit) as { agreed: number; total: number };
          tally.total += 1;
          if (ourOutcome(check.status) === lighthouse) tally.agreed += 1;
          else if (audit === "cumulative-layout-shift")
            console.log(`${site.id} ${audit}: ours ${check.status}, Lighthouse ${lighthouse} (render-dependent)`);
          else disagreements.push(`${site.id} ${audit}: ours ${check.status}, Lighthouse ${lighthouse}`);
        }
      }
    } finally {
      await scanner.close();
      await served.close();
    }
    const figures = [...perAudit].map(([audit, { agreed, total }]) => `${audit} ${agreed}/${total}`);
    console.log(`corpora, ${chosen.length} pages: ${figures.join(", ")}\n${disagreements.join("\n")}`);
    expect(disagreements).toEqual([]);
    const cls = perAudit.get("cumulative-layout-shift") as { agreed: number; total: number };
    expect(cls.total - cls.agreed).toBeLessThanOrEqual(Math.ceil(cls.total * CLS_DISAGREEING_AT_MOST));
  });
});
