import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runSiteChecks } from "@scan/audit";
import {
  type AiCatalogDiscovery,
  aiCatalogSignals,
  aiCatalogUrl,
  llmsTxt,
  llmsTxtFormat,
  preparePage,
} from "@scan/checks";
import { FIXED_SCAN_TIME, snapshotOf } from "@scan/checks/testing";
import type { TextResource } from "@scan/contract";
import { type AgenticSite, allCorpusSites, fixtureSites } from "./support/agentic-sites";

/**
 * This service's llms.txt and ai-catalog verdicts against Lighthouse 13.5's `llms-txt` and
 * `ard-schema` (docs/reports/lighthouse-agentic.json, written by scripts/lighthouse-agentic.ts)
 * on every page there: the fixture sites of tests/fixtures/agentic and both shared corpora, judged
 * browser-free from the same files the script served. Lighthouse pass (score 1, or 0.9 for an
 * ard-schema with warnings only) ↔ our pass; fail ↔ our warn or fail; not applicable ↔ our
 * "nothing to judge". Every disagreement is listed in EXCEPTIONS with the reason its check's doc
 * comment gives, and every exception must still be a disagreement.
 */

type Outcome = "pass" | "fail" | "n/a";
type Audit = "llms-txt" | "ard-schema";

const EXCEPTIONS: Record<string, string> = {
  // llms-txt-format.check.ts: a heading inside a code fence is code, not the file's title
  "fixture/llms-h1-in-fence llms-txt": "an H1 only inside a code fence",
  // ai-catalog.ts (aiCatalogState): an HTML page at the well-known path is a soft 404, not a catalog
  "fixture/catalog-wellknown-html ard-schema": "an HTML soft 404 at /.well-known/ai-catalog.json",
};

const ORIGIN = "http://127.0.0.1:8080";

const resourceOf = (site: AgenticSite, url: string): TextResource => {
  const answer = site.answer(new URL(url).pathname);
  return {
    url,
    status: answer.status,
    contentType: answer.contentType,
    body: answer.body,
    truncated: false,
    error: null,
  };
};

/** llms-txt and llms-txt-format together, as Lighthouse's one audit sees them. */
const llmsOutcome = (site: AgenticSite): Outcome => {
  const page = site.answer(site.pagePath);
  const file = resourceOf(site, `${ORIGIN}/llms.txt`);
  const prepared = preparePage(
    snapshotOf(page.body, {
      requestedUrl: `${ORIGIN}${site.pagePath}`,
      finalUrl: `${ORIGIN}${site.pagePath}`,
      llmsTxt: file,
    }),
    FIXED_SCAN_TIME,
  );
  const present = llmsTxt.run(prepared);
  const format = llmsTxtFormat.run(prepared);
  // llms-txt warns on a 4xx: the site publishes none, which Lighthouse calls not applicable
  if (present.status === "warn" && file.status >= 400 && file.status < 500) return "n/a";
  if (format.status === "pass" || format.status === "warn") return "pass";
  if (format.status === "fail") return "fail";
  return present.status === "pass" ? "pass" : "fail";
};

const catalogOutcome = (site: AgenticSite): Outcome => {
  const page = site.answer(site.pagePath);
  const signals = aiCatalogSignals({
    pageUrl: `${ORIGIN}${site.pagePath}`,
    html: page.body,
    linkHeader: page.headers.link ?? null,
    robotsTxt: null,
  });
  const aiCatalog: AiCatalogDiscovery = { signals, catalog: resourceOf(site, aiCatalogUrl(signals)) };
  const results = runSiteChecks({
    origin: ORIGIN,
    pages: [],
    robots: { allowsGooglebot: () => true },
    llmsTxt: null,
    extraAnswers: new Map(),
    aiCatalog,
  });
  const statuses = results.filter((check) => check.id.startsWith("ai-catalog")).map((check) => check.status);
  if (statuses.every((status) => status === "skip")) return "n/a";
  return statuses.includes("fail") ? "fail" : "pass";
};

const lighthouseOutcome = (score: number | null): Outcome => (score === null ? "n/a" : score >= 0.9 ? "pass" : "fail");

const report = JSON.parse(readFileSync(join(__dirname, "../docs/reports/lighthouse-agentic.json"), "utf8")) as {
  pages: Record<string, Record<Audit, number | null>>;
};
const sites = new Map([...fixtureSites(), ...allCorpusSites()].map((site) => [site.id, site]));

describe("agreement with Lighthouse 13.5's agentic-browsing audits", () => {
  const rows = Object.entries(report.pages).flatMap(([id, scores]) =>
    (["llms-txt", "ard-schema"] as const).map((audit) => ({ id, audit, lighthouse: lighthouseOutcome(scores[audit]) })),
  );

  it("covers every fixture site", () => {
    for (const site of fixtureSites()) expect(Object.keys(report.pages)).toContain(site.id);
  });

  it("agrees on every page and audit but the listed exceptions", () => {
    const disagreements: string[] = [];
    let agreed = 0;
    for (const { id, audit, lighthouse } of rows) {
      const site = sites.get(id);
      if (!site) throw new Error(`${id} is in the report but not among the sites`);
      const ours = audit === "llms-txt" ? llmsOutcome(site) : catalogOutcome(site);
      if (ours === lighthouse) agreed += 1;
      else disagreements.push(`${id} ${audit}`);
    }
    console.log(`agentic agreement: ${agreed}/${rows.length} (${((100 * agreed) / rows.length).toFixed(1)} %)`);
    expect(disagreements.sort()).toEqual(Object.keys(EXCEPTIONS).sort());
  });
});
