import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureSites } from "./support/agentic-sites";
import { scanSiteFull } from "./support/loopback-scanner";

/**
 * This service's render-time agentic verdicts against Lighthouse 13.5's (docs/reports/
 * lighthouse-agentic.json, written by scripts/lighthouse-agentic.ts) on the fixture pages made
 * for them (tests/fixtures/agentic/render-*): each page served over loopback and scanned in
 * full by the scanner in real Chromium with WebMCP enabled (as the worker launches it, and as
 * scripts/lighthouse-agentic.ts launches Lighthouse's). Lighthouse pass (score 0.9 and above;
 * webmcp-form-coverage 1 where every form is annotated, 0 where it lists bare ones) ↔ our pass;
 * fail ↔ our warn or fail; not applicable ↔ our skip.
 */

type Outcome = "pass" | "fail" | "n/a";
const AUDITS = {
  "agent-accessibility-tree": "agent-accessibility-tree",
  "cumulative-layout-shift": "cumulative-layout-shift",
  "webmcp-form-coverage": "webmcp-form-coverage",
  "webmcp-schema-validity": "webmcp-schema-validity",
} as const;
type Audit = keyof typeof AUDITS;

/** every disagreement, with the reason its check's doc comment gives */
const EXCEPTIONS: Record<string, string> = {
  // webmcp.check.ts (webmcpSchemaValidity): Lighthouse reads only Chromium's findings on annotated
  // forms and never validates an imperative tool's inputSchema
  "fixture/render-webmcp-tool-invalid webmcp-schema-validity: ours fail, Lighthouse pass":
    "an imperative tool whose inputSchema is not a JSON Schema of an object",
};

const report = JSON.parse(readFileSync(join(__dirname, "../docs/reports/lighthouse-agentic.json"), "utf8")) as {
  pages: Record<string, Partial<Record<Audit | "webmcp-registered-tools", number | null>>>;
};
const renderSites = fixtureSites().filter((site) => site.id.startsWith("fixture/render-"));

const lighthouseOutcome = (score: number | null): Outcome => (score === null ? "n/a" : score >= 0.9 ? "pass" : "fail");
const ourOutcome = (status: string): Outcome => (status === "skip" ? "n/a" : status === "pass" ? "pass" : "fail");

describe("agreement with Lighthouse 13.5's render-time agentic audits", () => {
  jest.setTimeout(120_000);

  it("has Lighthouse's verdicts for every render fixture", () => {
    expect(renderSites.length).toBeGreaterThanOrEqual(11);
    for (const site of renderSites) expect(report.pages[site.id]?.["agent-accessibility-tree"]).toBeDefined();
  });

  it("agrees on every render fixture and audit but the listed exceptions", async () => {
    const disagreements: string[] = [];
    let agreed = 0;
    let total = 0;
    for (const site of renderSites) {
      const scanned = await scanSiteFull(site, 20_000);
      expect(scanned.snapshot.agent).toBeDefined();
      // the registered tools are listed, not judged: Lighthouse's audit is applicable exactly where WebMCP is
      expect(lighthouseOutcome(report.pages[site.id]?.["webmcp-registered-tools"] ?? null)).toBe(
        scanned.snapshot.agent?.webmcp?.supported ? "pass" : "n/a",
      );
      for (const audit of Object.keys(AUDITS) as Audit[]) {
        const check = scanned.outcome.checks.find((result) => result.id === AUDITS[audit]);
        if (!check) throw new Error(`${site.id}: no ${audit} check in a full scan`);
        const lighthouse = lighthouseOutcome(report.pages[site.id]?.[audit] ?? null);
        total += 1;
        if (ourOutcome(check.status) === lighthouse) agreed += 1;
        else disagreements.push(`${site.id} ${audit}: ours ${check.status}, Lighthouse ${lighthouse}`);
      }
    }
    console.log(`render-time agentic agreement: ${agreed}/${total} (${((100 * agreed) / total).toFixed(1)} %)`);
    expect(disagreements.sort()).toEqual(Object.keys(EXCEPTIONS).sort());
  });
});
