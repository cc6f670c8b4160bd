import type { AgentCapture, AxeViolation, LayoutShiftCapture, WebMcpCapture, WebMcpTool } from "@scan/contract";
import type { CDPSession, Page } from "playwright-core";

/**
 * axe-core's minified release build, the same version and rules as its readable `axe.js` (the
 * package's main): the text sent to every rendered page is 0.65 MB instead of 1.48 MB, which
 * Chromium receives and compiles in about two thirds of the time.
 */
export const axeSource: string = (require("axe-core/axe.min.js") as { source: string }).source;

/**
 * The axe-core rules of Lighthouse 13.5's `agent-accessibility-tree` audit
 * (core/audits/agentic/agent-accessibility-tree.js, TARGET_RULES). Lighthouse runs axe with
 * the wcag2a and wcag2aa tags plus rules it enables by name, then keeps these; every one of them
 * runs under its configuration (the best-practice ones and autocomplete-valid are enabled by
 * name), so running exactly these gives the same violations for less work.
 */
export const AGENT_AXE_RULES = [
  "button-name",
  "input-button-name",
  "input-image-alt",
  "label",
  "link-name",
  "select-name",
  "document-title",
  "aria-allowed-attr",
  "aria-allowed-role",
  "aria-command-name",
  "aria-conditional-attr",
  "aria-dialog-name",
  "aria-hidden-body",
  "aria-hidden-focus",
  "aria-input-field-name",
  "aria-prohibited-attr",
  "aria-required-attr",
  "aria-required-children",
  "aria-required-parent",
  "aria-roles",
  "aria-text",
  "aria-toggle-field-name",
  "aria-tooltip-name",
  "aria-treeitem-name",
  "aria-valid-attr",
  "aria-valid-attr-value",
  "duplicate-id-aria",
  "definition-list",
  "table-duplicate-name",
  "tabindex",
  "autocomplete-valid",
  "presentation-role-conflict",
  "svg-img-alt",
] as const;

/** the nodes named per violated rule; the count says how many there were */
const TARGETS_KEPT = 3;

/** Chromium's issues about annotated forms, the ones Lighthouse's webmcp-schema gatherer keeps */
const FORM_ISSUES = new Set([
  "FormModelContextMissingToolName",
  "FormModelContextMissingToolDescription",
  "FormModelContextRequiredParameterMissingName",
  "FormModelContextParameterMissingTitleAndDescription",
  "FormModelContextParameterMissingName",
]);

type CdpTool = { name: string; description?: string; inputSchema?: unknown; backendNodeId?: number };
type ToolsEvent = { tools?: CdpTool[] };
type IssueEvent = {
  issue?: { code?: string; details?: { genericIssueDetails?: { errorType?: string; violatingNodeId?: number } } };
};

export type AgentRecorder = {
  /** reads what was recorded and measures the settled page; each part null when it could not be */
  finish: (timeoutMs: number) => Promise<AgentCapture>;
};

/** detaching from an idle page takes milliseconds */
const DETACH_TIMEOUT_MS = 1000;

/** what `within` answers when the time ran out, where that must be told apart from a failure */
const UNFINISHED = Symbol("unfinished");

/** the promise's value; null when it failed; `timedOut` when `ms` ran out first */
const within = <T, U>(promise: Promise<T>, ms: number, timedOut: U): Promise<T | U | null> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(timedOut), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });

/**
 * Starts listening before the page is navigated, as Lighthouse's WebMCP gatherers do: Chromium's
 * WebMCP domain reports every tool registered from the first script on (imperative ones through
 * `modelContext.registerTool`, declarative ones from `<form toolname>`), and the Audits domain
 * reports Chromium's own findings on annotated forms. A Chromium without the WebMCP domain, or
 * one whose page has no `modelContext`, is recorded as not supporting it.
 */
export const startAgentCapture = async (page: Page): Promise<AgentRecorder> => {
  const session: CDPSession = await page.context().newCDPSession(page);
  const tools = new Map<string, WebMcpTool>();
  const formIssues = new Map<string, { type: string; element: string | null }>();
  session.on(
    "WebMCP.toolsAdded" as never,
    ((event: ToolsEvent) => {
      for (const tool of event.tools ?? []) {
        tools.set(tool.name, {
          name: tool.name,
          description: tool.description ?? "",
          inputSchema: tool.inputSchema ?? null,
          declarative: typeof tool.backendNodeId === "number",
        });
      }
    }) as never,
  );
  session.on(
    "WebMCP.toolsRemoved" as never,
    ((event: ToolsEvent) => {
      for (const tool of event.tools ?? []) tools.delete(tool.name);
    }) as never,
  );
  session.on(
    "Audits.issueAdded" as never,
    ((event: IssueEvent) => {
      if (event.issue?.code !== "GenericIssue") return;
      const details = event.issue.details?.genericIssueDetails;
      if (!details?.errorType || !FORM_ISSUES.has(details.errorType)) return;
      // one finding per element and kind, as Lighthouse counts them
      formIssues.set(`${details.violatingNodeId ?? "-"} ${details.errorType}`, {
        type: details.errorType,
        element: details.violatingNodeId === undefined ? null : `node ${details.violatingNodeId}`,
      });
    }) as never,
  );
  const protocolKnowsWebMcp = await session
    .send("WebMCP.enable" as never)
    .then(() => true)
    .catch(() => false);
  await session.send("Audits.enable").catch(() => undefined);

  return {
    finish: async (timeoutMs) => {
      const started = Date.now();
      const left = () => Math.max(timeoutMs - (Date.now() - started), 1);
      const exposed = await within(
        page.evaluate(
          () =>
            typeof (navigator as { modelContext?: unknown }).modelContext !== "undefined" ||
            typeof (document as { modelContext?: unknown }).modelContext !== "undefined",
        ),
        left(),
        null,
      );
      const webmcp: WebMcpCapture | null =
        exposed === null
          ? null
          : {
              supported: protocolKnowsWebMcp && exposed,
              tools: protocolKnowsWebMcp && exposed ? [...tools.values()] : [],
              formIssues: protocolKnowsWebMcp && exposed ? [...formIssues.values()] : [],
            };
      const layoutShift = await within(page.evaluate(measureLayoutShift), left(), null);
      const axeGivenMs = left();
      const axe = await within(runAxe(page), axeGivenMs, UNFINISHED);
      // a page still busy with axe answers the detach only when axe ends: the context's close ends it
      await within(session.detach(), Math.min(left(), DETACH_TIMEOUT_MS), null);
      if (axe === UNFINISHED) return { axe: null, axeUnfinishedAfterMs: Math.round(axeGivenMs), webmcp, layoutShift };
      return { axe, webmcp, layoutShift };
    },
  };
};

/**
 * CLS as Lighthouse computes it: shifts without recent input, in session windows (a window ends
 * after a 1 s gap or 5 s in all), the largest window's sum. Read from the buffered entries of the
 * page's main frame, which hold every shift since the page started (up to 150).
 */
const measureLayoutShift = (): LayoutShiftCapture => {
  type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean };
  const observer = new PerformanceObserver(() => undefined);
  let entries: Shift[] = [];
  try {
    observer.observe({ type: "layout-shift", buffered: true });
    // buffered entries are queued on the observer as it starts observing
    entries = observer.takeRecords() as Shift[];
  } catch {
    entries = [];
  } finally {
    observer.disconnect();
  }
  const counted = entries.filter((entry) => !entry.hadRecentInput).sort((a, b) => a.startTime - b.startTime);
  let cls = 0;
  let windowSum = 0;
  let windowStart = 0;
  let previous = Number.NEGATIVE_INFINITY;
  for (const shift of counted) {
    if (shift.startTime - previous > 1000 || shift.startTime - windowStart > 5000) {
      windowSum = 0;
      windowStart = shift.startTime;
    }
    windowSum += shift.value;
    previous = shift.startTime;
    cls = Math.max(cls, windowSum);
  }
  return { cls, shifts: counted.length };
};

/** axe-core injected into the page and run with the agentic rules only. */
const runAxe = async (page: Page): Promise<{ version: string; violations: AxeViolation[] }> => {
  await page.evaluate(axeSource);
  return page.evaluate(
    async ({ rules, kept }) => {
      type AxeNode = { target: unknown[] };
      type AxeResult = { id: string; impact?: string | null; help: string; nodes: AxeNode[] };
      const axe = (
        window as unknown as {
          axe: {
            version: string;
            run: (context: Document, options: unknown) => Promise<{ violations: AxeResult[] }>;
          };
        }
      ).axe;
      const results = await axe.run(document, {
        runOnly: { type: "rule", values: rules },
        resultTypes: ["violations"],
        // axe is injected into the main frame only, so a frame never answers its ping: with
        // frames on, axe waited 500 ms for that on every page with an iframe and then judged
        // the main frame alone, as it does at once with them off (the same violations on the
        // heaviest corpus pages, 250 to 350 ms less: docs/reports/bench-agentic-cost.md)
        iframes: false,
      });
      return {
        version: axe.version,
        violations: results.violations.map((violation) => ({
          rule: violation.id,
          impact: violation.impact ?? null,
          help: violation.help,
          nodes: violation.nodes.length,
          targets: violation.nodes.slice(0, kept).map((node) => node.target.map(String).join(" ")),
        })),
      };
    },
    { rules: [...AGENT_AXE_RULES], kept: TARGETS_KEPT },
  );
};
