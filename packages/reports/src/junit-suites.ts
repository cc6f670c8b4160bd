import type { CheckResult } from "@scan/contract";
import { AREA_LABEL, AREAS, type PageReport, type ToolInfo } from "./page-report";
import { attributes, xmlText } from "./xml";

/**
 * The parts of a JUnit XML document, shared by a list of pages (junit.ts) and an audit
 * (audit-junit.ts). Valid against both schemas CI systems use: Apache Ant's (the windyroad
 * JUnit.xsd: `properties`, `system-out` and `system-err` in every suite, `package` and `id` on
 * suites inside `testsuites`, a timestamp without a zone) and the Jenkins xUnit plugin's
 * junit-10.xsd.
 */

/** `2024-05-01T12:00:00`: the schema's ISO 8601 pattern allows no fraction and no zone (UTC here). */
const timestampOf = (iso: string | null): string => (iso ? new Date(iso) : new Date()).toISOString().slice(0, 19);

export const seconds = (ms: number | null): string => ((ms ?? 0) / 1000).toFixed(3);

/** A suite's properties, in order; a null value is left out. */
export type Properties = ReadonlyArray<readonly [name: string, value: string | number | null]>;

export type Counts = { tests: number; failures: number; errors: number; skipped: number };

export type Suite = {
  name: string;
  /** when what the suite reports was found (ISO 8601) */
  timestamp: string | null;
  properties: Properties;
  /** the test cases, as XML */
  cases: string;
  counts: Counts;
  /** the suite's time in milliseconds */
  timeMs: number | null;
  out: string;
};

const propertiesXml = (properties: Properties): string =>
  "    <properties>\n" +
  properties
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `      <property${attributes({ name, value: value as string | number })}/>\n`)
    .join("") +
  "    </properties>\n";

/** A suite, `id` its number in the document. */
export const suiteXml = (suite: Suite, id: number): string =>
  `  <testsuite${attributes({
    name: suite.name,
    package: "aeo-scan",
    id,
    timestamp: timestampOf(suite.timestamp),
    hostname: "localhost",
    ...suite.counts,
    time: seconds(suite.timeMs),
  })}>\n` +
  propertiesXml(suite.properties) +
  suite.cases +
  `    <system-out>${xmlText(suite.out)}</system-out>\n` +
  "    <system-err></system-err>\n" +
  "  </testsuite>\n";

/**
 * What comes before the suites. The root carries no totals, so the suites can be written before
 * they are all counted: Ant's schema allows it no attribute, Jenkins' makes its totals optional,
 * and GitLab's and Jenkins' readers count the test cases themselves.
 */
export const JUNIT_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n`;
export const JUNIT_TAIL = "</testsuites>\n";

/** The suites as one document (`testsuites`), numbered from 0 in order. */
export const junitDocument = (suites: readonly Suite[]): string =>
  `${JUNIT_HEAD}${suites.map(suiteXml).join("")}${JUNIT_TAIL}`;

/** One test case: `failure` (type `fail` or `warn`) with the details, `skipped`, or passed. */
export const testcaseXml = ({
  name,
  classname,
  status,
  message,
  details,
}: {
  name: string;
  classname: string;
  status: CheckResult["status"];
  message: string;
  details: string;
}): string => {
  const head = `    <testcase${attributes({ name, classname, time: "0" })}`;
  switch (status) {
    case "fail":
    case "warn":
      return `${head}>\n      <failure${attributes({ type: status, message })}>${xmlText(details)}</failure>\n    </testcase>\n`;
    case "skip":
      return `${head}>\n      <skipped${attributes({ message })}/>\n    </testcase>\n`;
    default:
      return `${head}/>\n`;
  }
};

export const countsOf = (checks: readonly Pick<CheckResult, "status">[]): Counts => ({
  tests: checks.length,
  failures: checks.filter((check) => check.status === "fail" || check.status === "warn").length,
  errors: 0,
  skipped: checks.filter((check) => check.status === "skip").length,
});

const pageProperties = (page: PageReport, tool: ToolInfo): Properties => [
  ["tool", `${tool.name} ${tool.version}`],
  ["url", page.url],
  ["final_url", page.finalUrl],
  ["scan_id", page.id],
  ["mode", page.mode],
  ["grade", page.grade],
  ...(page.scores
    ? ([
        ["score_seo", page.scores.seo],
        ["score_aeo", page.scores.aeo],
        ["score_geo", page.scores.geo],
        ["score_overall", page.scores.overall],
      ] as const)
    : []),
  ["duration_ms", page.durationMs],
  ["render_failure", page.renderFailure?.code ?? null],
];

const detailsOf = (check: CheckResult): string =>
  [
    check.description,
    `Status: ${check.status}; severity: ${check.severity}; points: ${check.score}/${check.maxScore}.`,
    check.fix ? `Fix: ${check.fix}` : "",
  ]
    .filter(Boolean)
    .join("\n");

/**
 * A page's suites: one per area (`SEO checks of <url>`) with a test case per check, or, for a
 * page whose scan failed, one suite with one test case in `error`. The page's scan time is on
 * its first suite, so that the suites' times add up to it. `pageInName` adds the page's URL to
 * each test case's name, for a report of many pages where a reporter lists test cases by name.
 */
export const pageSuites = (page: PageReport, tool: ToolInfo, { pageInName = false } = {}): Suite[] => {
  const properties = pageProperties(page, tool);
  if (page.status === "failed") {
    const error = page.error ?? { code: "error", message: "The scan did not complete" };
    return [
      {
        name: `Scan of ${page.url}`,
        timestamp: page.scannedAt,
        properties,
        cases: `    <testcase${attributes({ name: pageInName ? `scan (${page.url})` : "scan", classname: "aeo-scan", time: seconds(page.durationMs) })}>\n      <error${attributes({ type: error.code, message: error.message })}>${xmlText(error.message)}</error>\n    </testcase>\n`,
        counts: { tests: 1, failures: 0, errors: 1, skipped: 0 },
        timeMs: page.durationMs,
        out: `The scan of ${page.url} failed: ${error.message} (${error.code})`,
      },
    ];
  }
  const suites = AREAS.map((area): Suite => {
    const checks = page.checks.filter((check) => check.category === area);
    const score = page.scores?.[area];
    return {
      name: `${AREA_LABEL[area]} checks of ${page.url}`,
      timestamp: page.scannedAt,
      properties,
      cases: checks
        .map((check) =>
          testcaseXml({
            name: `${check.id}: ${check.title}${pageInName ? ` (${page.url})` : ""}`,
            classname: `aeo-scan.${check.category}`,
            status: check.status,
            message: check.description,
            details: detailsOf(check),
          }),
        )
        .join(""),
      counts: countsOf(checks),
      timeMs: 0,
      out: `${AREA_LABEL[area]} score ${score ?? "?"} of 100; overall ${page.scores?.overall ?? "?"}, grade ${page.grade ?? "?"} (${page.mode} scan)`,
    };
  }).filter((suite) => suite.counts.tests > 0);
  const [first] = suites;
  if (first) first.timeMs = page.durationMs;
  return suites;
};
