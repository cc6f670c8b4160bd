import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type AuditExport,
  CSV_COLUMNS,
  type PageReport,
  renderAuditJunit,
  renderAuditSarif,
  renderCsv,
  renderJunit,
  renderSarif,
  TOOL,
} from "@scan/reports";
import { auditExport, checkResult, pageReport, siteCheckResult, siteReport } from "@scan/reports/testing";
import { csvRows, junitProblems, parseCsv, sarifProblems } from "./support/report-schemas";

/**
 * The export formats against their published schemas, on pages whose findings quote hostile
 * page text: SARIF 2.1.0's JSON schema, the two JUnit XSDs CI systems use (xmllint), and CSV
 * read back by csv-parse, value for value.
 */

const HOSTILE = [
  '=HYPERLINK("http://evil.example/","click")',
  "+cmd|' /C calc'!A0",
  "-2+3",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\tTab first",
  "\rCarriage return first",
  'Quotes "inside", commas, and\nline\r\nbreaks',
  "<script>alert('x')</script> & ]]> \u0001\u001F control",
  "Unicode: café, 東京, 😀",
];

const hostilePage = (): PageReport =>
  pageReport({
    url: "https://example.com/p?q=a%20b&x=1",
    checks: HOSTILE.map((text, index) =>
      checkResult({
        id: `check-${index}`,
        category: (["seo", "aeo", "geo"] as const)[index % 3],
        status: (["fail", "warn", "pass", "skip"] as const)[index % 4],
        severity: (["critical", "warning", "info"] as const)[index % 3],
        score: 0,
        title: text,
        description: text,
        fix: text,
      }),
    ),
  });

const failedPage = (): PageReport =>
  pageReport({
    url: "https://down.example/",
    finalUrl: null,
    status: "failed",
    grade: null,
    scores: null,
    checks: [],
    error: { code: "upstream_failure", message: "The target answered 503 <Service Unavailable> & gave up" },
  });

const PAGES: Array<[string, PageReport[]]> = [
  ["a typical page", [pageReport()]],
  ["hostile page text", [hostilePage()]],
  ["a failed scan", [failedPage()]],
  ["several pages, one failed", [pageReport(), hostilePage(), failedPage()]],
  ["no pages", []],
];

/** Audits: a typical one, one whose site findings quote hostile page text, one that judged no page. */
const AUDITS: Array<[string, AuditExport]> = [
  ["a typical audit", auditExport()],
  [
    "hostile text in pages and site findings",
    auditExport({
      pages: [hostilePage(), failedPage()],
      report: siteReport({
        site_checks: [
          siteCheckResult({
            description: HOSTILE[6] ?? "",
            findings: HOSTILE.map((text, index) => ({
              url: `https://example.com/t/${index}?q=${encodeURIComponent(text)}`,
              detail: text,
              pages: ["https://example.com/p?q=a%20b&x=1"],
            })),
            findings_total: 250,
          }),
        ],
      }),
    }),
  ],
  [
    "an audit that judged no page",
    auditExport({ pages: [], report: siteReport({ pages_judged: 0, page_checks: [] }) }),
  ],
];

const run = promisify(execFile);

/** An XPath expression's string value, read by xmllint from the document. */
const xpath = async (xml: string, expression: string): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), "xpath-"));
  try {
    await writeFile(join(dir, "doc.xml"), xml);
    const { stdout } = await run("xmllint", ["--xpath", `string(${expression})`, join(dir, "doc.xml")]);
    // xmllint ends what it prints with a line break of its own
    return stdout.replace(/\n$/, "");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

describe("SARIF 2.1.0", () => {
  it.each(PAGES)("is valid against the OASIS schema: %s", (_name, pages) => {
    const log = JSON.parse(renderSarif(pages, TOOL));
    expect(sarifProblems(log)).toEqual([]);
  });

  it.each(PAGES)("is valid with locations for GitHub code scanning, none with a scheme: %s", (_name, pages) => {
    const log = JSON.parse(renderSarif(pages, TOOL, { locations: "github" }));
    expect(sarifProblems(log)).toEqual([]);
    const uris = JSON.stringify(log).match(/"uri":"[^"]*"/g) ?? [];
    for (const uri of uris) expect(uri).not.toMatch(/"uri":"[a-z][a-z0-9+.-]*:/i);
  });

  it("the schema finds what is wrong with an invalid log", () => {
    const log = JSON.parse(renderSarif([pageReport()], TOOL));
    log.runs[0].results[0].level = "fatal";
    delete log.runs[0].tool.driver.name;
    log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = "not a uri";
    expect(sarifProblems(log).length).toBeGreaterThanOrEqual(3);
  });

  it("keeps the page text as it was", () => {
    const log = JSON.parse(renderSarif([hostilePage()], TOOL));
    const messages = log.runs[0].results.map((result: { message: { text: string } }) => result.message.text);
    expect(messages[0]).toBe(`${HOSTILE[0]} Fix: ${HOSTILE[0]}`);
    expect(log.runs[0].artifacts[0].location.uri).toBe("https://example.com/p?q=a%20b&x=1");
  });

  it("names each rule's evidence grade and its source, and stays valid", () => {
    const source = { title: "Google Search Central: title links", url: "https://developers.google.com/search" };
    const page = pageReport({
      checks: [
        checkResult({ id: "graded", status: "fail", evidence: { grade: "documented", source, checked: "2026-11-20" } }),
        checkResult({
          id: "convention",
          status: "warn",
          evidence: { grade: "convention", source: null, checked: null },
        }),
        checkResult({ id: "ungraded", status: "fail" }),
      ],
    });
    const log = JSON.parse(renderSarif([page], TOOL));
    expect(sarifProblems(log)).toEqual([]);
    const rules = new Map(
      log.runs[0].tool.driver.rules.map((rule: { id: string; properties: Record<string, unknown> }) => [
        rule.id,
        rule.properties,
      ]),
    );
    expect(rules.get("graded")).toMatchObject({ evidence: "documented", evidenceSource: source.url });
    expect(rules.get("convention")).toMatchObject({ evidence: "convention" });
    expect(rules.get("convention")).not.toHaveProperty("evidenceSource");
    expect(rules.get("ungraded")).not.toHaveProperty("evidence");
  });
});

describe("JUnit XML", () => {
  it.each(PAGES)("is valid against the Ant and Jenkins xUnit XSDs: %s", async (_name, pages) => {
    expect(await junitProblems(renderJunit(pages, TOOL))).toEqual([]);
  });

  it("the XSDs find what is wrong with an invalid document", async () => {
    const broken = renderJunit([pageReport()], TOOL)
      .replace(/ classname="[^"]*"/, "")
      .replace("<failure type=", "<failure kind=");
    expect((await junitProblems(broken)).length).toBe(2);
  });

  it("has one test case per check, failures, skips and counts a parser reads back", async () => {
    const xml = renderJunit([pageReport()], TOOL);
    expect(await xpath(xml, "count(//testcase)")).toBe("5");
    expect(await xpath(xml, "count(//testsuite)")).toBe("3");
    expect(await xpath(xml, "//testsuite[@name='SEO checks of https://example.com/']/@failures")).toBe("2");
    expect(await xpath(xml, "//testsuite[@name='AEO checks of https://example.com/']/@skipped")).toBe("1");
    expect(await xpath(xml, "//testcase[@name='https: Page is served over HTTPS']/failure/@type")).toBe("fail");
    expect(await xpath(xml, "//testcase[@name='llms-txt: llms.txt is published']/failure/@type")).toBe("warn");
    expect(await xpath(xml, "//testcase[@name='faq-schema: FAQ markup is valid']/skipped/@message")).toBe("No FAQ.");
    expect(await xpath(xml, "//testsuite[1]/properties/property[@name='score_overall']/@value")).toBe("70");
    expect(await xpath(xml, "//testsuite[1]/@timestamp")).toBe("2025-03-01T10:20:30");
  });

  it("escapes page text so that a parser reads it back unchanged", async () => {
    const xml = renderJunit([hostilePage()], TOOL);
    // the attribute keeps line breaks and tabs; control characters XML cannot hold become U+FFFD
    expect(await xpath(xml, "//testcase[1]/failure/@message")).toBe(HOSTILE[0]);
    expect(await xpath(xml, "//testcase[starts-with(@name, 'check-6:')]/@name")).toBe(`check-6: ${HOSTILE[6]}`);
    expect(await xpath(xml, "//testcase[starts-with(@name, 'check-7:')]/skipped/@message")).toBe(
      "<script>alert('x')</script> & ]]> \uFFFD\uFFFD control",
    );
    expect(await xpath(xml, "//testcase[starts-with(@name, 'check-5:')]/failure")).toContain(
      `${HOSTILE[5]}\nStatus: warn`,
    );
  });

  it("reports a failed scan as a test case in error", async () => {
    const xml = renderJunit([failedPage()], TOOL);
    expect(await xpath(xml, "//testcase[@name='scan']/error/@type")).toBe("upstream_failure");
    expect(await xpath(xml, "//testcase[@name='scan']/error")).toBe(
      "The target answered 503 <Service Unavailable> & gave up",
    );
    expect(await xpath(xml, "//testsuite/@errors")).toBe("1");
  });
});

describe("an audit's exports", () => {
  it.each(AUDITS)("SARIF is valid against the OASIS schema, with either kind of location: %s", (_name, audit) => {
    expect(sarifProblems(JSON.parse(renderAuditSarif(audit, TOOL)))).toEqual([]);
    const github = JSON.parse(renderAuditSarif(audit, TOOL, { locations: "github" }));
    expect(sarifProblems(github)).toEqual([]);
    for (const uri of JSON.stringify(github).match(/"uri":"[^"]*"/g) ?? []) expect(uri).not.toMatch(/"uri":"[a-z]+:/i);
  });

  it.each(AUDITS)("JUnit XML is valid against the Ant and Jenkins xUnit XSDs: %s", async (_name, audit) => {
    expect(await junitProblems(renderAuditJunit(audit, TOOL))).toEqual([]);
  });

  it("JUnit XML reads back: site checks, then pages, with page text unchanged", async () => {
    const [, hostile] = AUDITS[1] as [string, AuditExport];
    const xml = renderAuditJunit(hostile, TOOL);
    expect(await xpath(xml, "//testsuite[1]/@name")).toBe("SEO site checks of https://example.com/");
    expect(await xpath(xml, "//testcase[starts-with(@name, 'broken-internal-links:')]/failure/@message")).toBe(
      HOSTILE[6],
    );
    const details = await xpath(xml, "//testcase[starts-with(@name, 'broken-internal-links:')]/failure");
    expect(details).toContain(`Findings (${HOSTILE.length} of 250):`);
    expect(details).toContain(`: ${HOSTILE[0]}\n  pages: https://example.com/p?q=a%20b&x=1`);
    expect(await xpath(xml, "count(//testcase)")).toBe(String(1 + HOSTILE.length + 1));
    expect(await xpath(xml, "//testcase[@name='scan (https://down.example/)']/error/@type")).toBe("upstream_failure");
  });
});

describe("CSV", () => {
  it.each(PAGES)("is read back by a CSV parser with a row per check: %s", (_name, pages) => {
    const rows = parseCsv(renderCsv(pages));
    const expected = pages.reduce((sum, page) => sum + (page.status === "failed" ? 1 : page.checks.length), 0);
    expect(rows).toHaveLength(expected);
    expect(csvRows(renderCsv(pages))[0]).toEqual([...CSV_COLUMNS]);
  });

  it("gives back every value, formulas neutralised with a leading quote", () => {
    const rows = parseCsv(renderCsv([hostilePage()]));
    const formula = /^[=+\-@\t\r]/;
    for (const [index, text] of HOSTILE.entries()) {
      const cell = formula.test(text) ? `'${text}` : text;
      expect(rows[index]).toMatchObject({ title: cell, finding: cell, fix: cell, check_id: `check-${index}` });
    }
    // no cell a spreadsheet would evaluate
    for (const row of rows) for (const value of Object.values(row)) expect(value).not.toMatch(formula);
    expect(rows[0]).toMatchObject({
      url: "https://example.com/p?q=a%20b&x=1",
      area: "seo",
      score: "0",
      max_score: "6",
    });
  });

  it("gives each check's evidence grade, empty where a result has none", () => {
    const page = pageReport({
      checks: [
        checkResult({ id: "graded", evidence: { grade: "industry_study", source: null, checked: null } }),
        checkResult({ id: "ungraded" }),
      ],
    });
    const rows = parseCsv(renderCsv([page, failedPage()]));
    expect(rows.map((row) => [row.check_id, row.evidence])).toEqual([
      ["graded", "industry_study"],
      ["ungraded", ""],
      ["", ""],
    ]);
  });
});
