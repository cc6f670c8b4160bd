import type { CheckResult } from "@scan/contract";
import { AREA_LABEL, AREAS, type PageReport, type ToolInfo } from "./page-report";
import { attributes, xmlText } from "./xml";

/**
 * JUnit XML as CI systems read it, valid against both schemas they use: Apache Ant's (the
 * windyroad JUnit.xsd: `properties`, `system-out` and `system-err` in every suite, `package`
 * and `id` on suites inside `testsuites`, a timestamp without a zone) and the Jenkins xUnit
 * plugin's junit-10.xsd.
 *
 * One test suite per page and area (`SEO checks of <url>`), one test case per check:
 * a check that fails or warns has a `failure` (type `fail` or `warn`), one that did not apply
 * is `skipped`. A page whose scan failed is one suite with one test case in `error`.
 */

/** `2024-05-01T12:00:00`: the schema's ISO 8601 pattern allows no fraction and no zone (UTC here). */
const timestampOf = (iso: string | null): string => (iso ? new Date(iso) : new Date()).toISOString().slice(0, 19);

const seconds = (ms: number | null): string => ((ms ?? 0) / 1000).toFixed(3);

const property = (name: string, value: string | number | null): string =>
  value === null ? "" : `      <property${attributes({ name, value })}/>\n`;

const properties = (page: PageReport, tool: ToolInfo): string =>
  "    <properties>\n" +
  property("tool", `${tool.name} ${tool.version}`) +
  property("url", page.url) +
  property("final_url", page.finalUrl) +
  property("scan_id", page.id) +
  property("mode", page.mode) +
  property("grade", page.grade) +
  (page.scores
    ? property("score_seo", page.scores.seo) +
      property("score_aeo", page.scores.aeo) +
      property("score_geo", page.scores.geo) +
      property("score_overall", page.scores.overall)
    : "") +
  property("duration_ms", page.durationMs) +
  "    </properties>\n";

const detailsOf = (check: CheckResult): string =>
  [
    check.description,
    `Status: ${check.status}; severity: ${check.severity}; points: ${check.score}/${check.maxScore}.`,
    check.fix ? `Fix: ${check.fix}` : "",
  ]
    .filter(Boolean)
    .join("\n");

const testcase = (check: CheckResult): string => {
  const head = `    <testcase${attributes({ name: `${check.id}: ${check.title}`, classname: `aeo-scan.${check.category}`, time: "0" })}`;
  switch (check.status) {
    case "fail":
    case "warn":
      return `${head}>\n      <failure${attributes({ type: check.status, message: check.description })}>${xmlText(detailsOf(check))}</failure>\n    </testcase>\n`;
    case "skip":
      return `${head}>\n      <skipped${attributes({ message: check.description })}/>\n    </testcase>\n`;
    default:
      return `${head}/>\n`;
  }
};

type Suite = {
  name: string;
  page: PageReport;
  cases: string;
  counts: { tests: number; failures: number; errors: number; skipped: number };
  out: string;
};

const suiteXml = (
  { name, page, cases, counts, out }: Suite,
  id: number,
  timeMs: number | null,
  tool: ToolInfo,
): string =>
  `  <testsuite${attributes({
    name,
    package: "aeo-scan",
    id,
    timestamp: timestampOf(page.scannedAt),
    hostname: "localhost",
    ...counts,
    time: seconds(timeMs),
  })}>\n` +
  properties(page, tool) +
  cases +
  `    <system-out>${xmlText(out)}</system-out>\n` +
  "    <system-err></system-err>\n" +
  "  </testsuite>\n";

const suitesOf = (page: PageReport): Suite[] => {
  if (page.status === "failed") {
    const error = page.error ?? { code: "error", message: "The scan did not complete" };
    return [
      {
        name: `Scan of ${page.url}`,
        page,
        cases: `    <testcase${attributes({ name: "scan", classname: "aeo-scan", time: seconds(page.durationMs) })}>\n      <error${attributes({ type: error.code, message: error.message })}>${xmlText(error.message)}</error>\n    </testcase>\n`,
        counts: { tests: 1, failures: 0, errors: 1, skipped: 0 },
        out: `The scan of ${page.url} failed: ${error.message} (${error.code})`,
      },
    ];
  }
  return AREAS.map((area) => {
    const checks = page.checks.filter((check) => check.category === area);
    const score = page.scores?.[area];
    return {
      name: `${AREA_LABEL[area]} checks of ${page.url}`,
      page,
      cases: checks.map(testcase).join(""),
      counts: {
        tests: checks.length,
        failures: checks.filter((check) => check.status === "fail" || check.status === "warn").length,
        errors: 0,
        skipped: checks.filter((check) => check.status === "skip").length,
      },
      out: `${AREA_LABEL[area]} score ${score ?? "?"} of 100; overall ${page.scores?.overall ?? "?"}, grade ${page.grade ?? "?"} (${page.mode} scan)`,
    };
  }).filter((suite) => suite.counts.tests > 0);
};

/** The pages as one JUnit XML document (`testsuites`), suites numbered from 0 in order. */
export const renderJunit = (pages: readonly PageReport[], tool: ToolInfo): string => {
  let id = 0;
  let body = "";
  for (const page of pages) {
    for (const [index, suite] of suitesOf(page).entries()) {
      // the page's scan time once, on its first suite, so that the suites' times add up to it
      body += suiteXml(suite, id, index === 0 ? page.durationMs : 0, tool);
      id += 1;
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${body}</testsuites>\n`;
};
