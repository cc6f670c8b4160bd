import type { AgentCapture } from "@scan/contract";
import { FIXED_SCAN_TIME, judge, snapshotOf } from "../fixture";
import { preparePage } from "../page";
import { agentCaptureChecks, checksFor } from "../registry";
import { runChecks } from "../run";
import { agentAccessibilityTree } from "./agent-accessibility-tree.check";
import { cumulativeLayoutShift } from "./layout-shift.check";
import { webmcpFormCoverage, webmcpSchemaValidity } from "./webmcp.check";

const CLEAN: AgentCapture = {
  axe: { version: "4.14.1", violations: [] },
  webmcp: { supported: true, tools: [], formIssues: [] },
  layoutShift: { cls: 0, shifts: 0 },
};
const PAGE = "<html><head><title>t</title></head><body><h1>Hours</h1></body></html>";
const FORMS =
  '<html><body><form id="search" toolname="search" tooldescription="Search the catalogue"><input name="q"></form><form action="/renew"><input name="card"></form></body></html>';
const with_ = (agent: Partial<AgentCapture>) => ({ agent: { ...CLEAN, ...agent } });

describe("agent-accessibility-tree", () => {
  it("passes when axe finds no violation of the agentic rules", () => {
    expect(judge(agentAccessibilityTree, PAGE, with_({})).status).toBe("pass");
  });

  it("fails on a violation, naming the rule and an element", () => {
    const verdict = judge(
      agentAccessibilityTree,
      PAGE,
      with_({
        axe: {
          version: "4.14.1",
          violations: [
            {
              rule: "button-name",
              impact: "critical",
              help: "Buttons must have discernible text",
              nodes: 2,
              targets: ["#buy"],
            },
          ],
        },
      }),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/button-name \(2 elements, e\.g\. #buy\)/);
    expect(verdict.fix).toMatch(/Buttons must have discernible text \(#buy\)/);
  });

  it("skips when axe had not finished in the time the scan had left, saying how long it had", () => {
    const verdict = judge(agentAccessibilityTree, PAGE, with_({ axe: null, axeUnfinishedAfterMs: 17_250 }));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/^Not measured: axe-core had not finished in the 17\.3 s the scan had left/);
    // axe that could not run at all is a different skip
    const failed = judge(agentAccessibilityTree, PAGE, with_({ axe: null }));
    expect(failed.description).toMatch(/could not run/);
  });

  it("skips when the render was not measured, saying why", () => {
    const verdict = judge(agentAccessibilityTree, PAGE, { rendered: false });
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/not rendered/);
    expect(judge(agentAccessibilityTree, PAGE).description).toMatch(/only full scans/);
  });
});

describe("cumulative-layout-shift", () => {
  it("judges by Lighthouse's thresholds", () => {
    expect(judge(cumulativeLayoutShift, PAGE, with_({ layoutShift: { cls: 0.1, shifts: 2 } })).status).toBe("pass");
    expect(judge(cumulativeLayoutShift, PAGE, with_({ layoutShift: { cls: 0.2, shifts: 2 } })).status).toBe("warn");
    const poor = judge(cumulativeLayoutShift, PAGE, with_({ layoutShift: { cls: 0.9776, shifts: 1 } }));
    expect(poor.status).toBe("fail");
    expect(poor.description).toMatch(/0\.978 over 1 shift/);
  });
});

describe("webmcp-form-coverage", () => {
  it("warns on forms without annotations and names them", () => {
    const verdict = judge(webmcpFormCoverage, FORMS, with_({}));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/1 form of 2 lack.*<form action="\/renew">/);
  });

  it("passes when every form is annotated, skips without forms", () => {
    const annotated = '<html><body><form toolname="a" tooldescription="b"></form></body></html>';
    expect(judge(webmcpFormCoverage, annotated, with_({})).status).toBe("pass");
    expect(judge(webmcpFormCoverage, PAGE, with_({})).status).toBe("skip");
  });

  it("says so when the browser has no WebMCP", () => {
    const verdict = judge(
      webmcpFormCoverage,
      FORMS,
      with_({ webmcp: { supported: false, tools: [], formIssues: [] } }),
    );
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/exposes no WebMCP/);
  });
});

describe("webmcp-schema-validity", () => {
  const tool = (inputSchema: unknown) => ({
    name: "reserve_book",
    description: "Reserve",
    inputSchema,
    declarative: false,
  });

  it("passes valid object schemas", () => {
    const schema = { type: "object", properties: { isbn: { type: "string" } }, required: ["isbn"] };
    const verdict = judge(
      webmcpSchemaValidity,
      PAGE,
      with_({ webmcp: { supported: true, tools: [tool(schema)], formIssues: [] } }),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/1 tool \(reserve_book\)/);
  });

  it("fails a schema that is not JSON Schema, and a form error Chromium reports", () => {
    const invalid = judge(
      webmcpSchemaValidity,
      PAGE,
      with_({ webmcp: { supported: true, tools: [tool({ type: "objekt", properties: 5 })], formIssues: [] } }),
    );
    expect(invalid.status).toBe("fail");
    expect(invalid.description).toMatch(/reserve_book: inputSchema/);
    const formError = judge(
      webmcpSchemaValidity,
      PAGE,
      with_({
        webmcp: {
          supported: true,
          tools: [],
          formIssues: [{ type: "FormModelContextMissingToolDescription", element: null }],
        },
      }),
    );
    expect(formError.status).toBe("fail");
    expect(formError.description).toMatch(/without `tooldescription`/);
  });

  it("warns on warnings only, skips with no tool", () => {
    const warning = judge(
      webmcpSchemaValidity,
      PAGE,
      with_({
        webmcp: {
          supported: true,
          tools: [],
          formIssues: [{ type: "FormModelContextParameterMissingName", element: null }],
        },
      }),
    );
    expect(warning.status).toBe("warn");
    expect(judge(webmcpSchemaValidity, PAGE, with_({})).status).toBe("skip");
  });
});

describe("agentCaptureChecks", () => {
  // a scan runs every other check before axe has ended (packages/scanner/src/scan-page.ts)
  const MEASURED: AgentCapture = {
    axe: {
      version: "4.14.1",
      violations: [
        { rule: "label", impact: "critical", help: "Form elements must have labels", nodes: 1, targets: ["input"] },
      ],
    },
    webmcp: {
      supported: true,
      tools: [{ name: "search", description: "", inputSchema: { type: "string" }, declarative: true }],
      formIssues: [{ type: "FormModelContextMissingToolDescription", element: "node 4" }],
    },
    layoutShift: { cls: 0.4, shifts: 3 },
  };
  const statuses = (html: string, agent: AgentCapture | undefined) => {
    const snapshot = snapshotOf(html, agent ? { agent } : {});
    const page = preparePage(snapshot, FIXED_SCAN_TIME);
    return runChecks(snapshot, { mode: "full", scannedAt: FIXED_SCAN_TIME, page });
  };

  it("holds every check that reads the agent capture, and only those", () => {
    for (const html of [PAGE, FORMS]) {
      const without = statuses(html, undefined);
      const clean = statuses(html, CLEAN);
      const measured = statuses(html, MEASURED);
      checksFor("full").forEach((check, index) => {
        const results = [without[index], clean[index], measured[index]];
        const alike = results.every((result) => JSON.stringify(result) === JSON.stringify(results[0]));
        if (!agentCaptureChecks.has(check))
          expect({ check: check.id, alike }).toEqual({ check: check.id, alike: true });
      });
    }
    for (const check of agentCaptureChecks) {
      const index = checksFor("full").indexOf(check);
      const changed = [PAGE, FORMS].some(
        (html) => JSON.stringify(statuses(html, undefined)[index]) !== JSON.stringify(statuses(html, MEASURED)[index]),
      );
      expect({ check: check.id, changed }).toEqual({ check: check.id, changed: true });
    }
  });
});
