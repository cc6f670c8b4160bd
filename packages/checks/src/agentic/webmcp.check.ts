import type { WebMcpTool } from "@scan/contract";
import Ajv from "ajv";
import { defineCheck } from "../check";
import type { Page } from "../page";
import { agentCaptureOf, plural } from "./render-capture";

const UNSUPPORTED =
  "This scan's Chromium exposes no WebMCP (`navigator.modelContext`), so the page's tools cannot be read; Lighthouse 13.5 calls the audit not applicable in the same browser.";

/** Chromium's form findings that Lighthouse counts as errors; the two others are warnings */
const FORM_ERRORS = new Set([
  "FormModelContextMissingToolName",
  "FormModelContextMissingToolDescription",
  "FormModelContextRequiredParameterMissingName",
]);

const FORM_ISSUE_WORDS: Record<string, string> = {
  FormModelContextMissingToolName: "a form without `toolname`",
  FormModelContextMissingToolDescription: "a form without `tooldescription`",
  FormModelContextRequiredParameterMissingName: "a required field without `name`",
  FormModelContextParameterMissingTitleAndDescription: "a field without a title or description",
  FormModelContextParameterMissingName: "an optional field without `name`",
};

const webmcpOf = (page: Page) => {
  const found = agentCaptureOf(page);
  if ("why" in found) return { skip: `Not measured: ${found.why}.` };
  const { webmcp } = found.capture;
  if (!webmcp) return { skip: "WebMCP could not be read from the rendered page." };
  if (!webmcp.supported) return { skip: UNSUPPORTED };
  return { webmcp };
};

/**
 * Forms left without WebMCP annotations: a `<form>` with neither `toolname` nor
 * `tooldescription` is one an agent must fill by guessing, where an annotated one is a tool it can
 * call. Lighthouse 13.5's `webmcp-form-coverage` lists such forms (informative); here they warn.
 * Skips, as Lighthouse does, when the page has no form or the browser has no WebMCP.
 */
export const webmcpFormCoverage = defineCheck({
  id: "webmcp-form-coverage",
  category: "geo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "Forms are annotated as WebMCP tools",
  run: (page) => {
    const forms = [...page.doc.querySelectorAll("form")];
    if (forms.length === 0) return { status: "skip", description: "The page has no form." };
    const read = webmcpOf(page);
    if ("skip" in read) return { status: "skip", description: read.skip ?? UNSUPPORTED };
    const bare = forms.filter((form) => !form.getAttribute("toolname") && !form.getAttribute("tooldescription"));
    if (bare.length === 0) {
      return { status: "pass", description: `All ${plural(forms.length, "form")} carry WebMCP annotations.` };
    }
    const named = bare.slice(0, 3).map((form) => formLabel(form));
    return {
      status: "warn",
      description: `${plural(bare.length, "form")} of ${forms.length} lack WebMCP annotations: ${named.join(", ")}.`,
      fix: `Add toolname="..." and tooldescription="..." to ${named.join(", ")} (and toolparamdescription to its fields), so an agent can call the form as a tool.`,
      evidence: named,
    };
  },
});

/** A form as a reader finds it in the source: its id, name or action. */
export const formLabel = (form: Element): string => {
  const id = form.getAttribute("id");
  if (id) return `<form id="${id}">`;
  const name = form.getAttribute("name");
  if (name) return `<form name="${name}">`;
  return `<form action="${form.getAttribute("action") ?? ""}">`;
};

const ajv = new Ajv({ strict: false, validateSchema: false });

/** why a tool's input schema is not a usable JSON schema of the tool's arguments, or null */
export const schemaProblem = (tool: WebMcpTool): string | null => {
  const schema = tool.inputSchema;
  if (schema === null || schema === undefined) return null;
  if (typeof schema !== "object" || Array.isArray(schema)) return "its inputSchema is not an object";
  if (!ajv.validateSchema(schema)) return ajv.errorsText(ajv.errors, { dataVar: "inputSchema" });
  const type = (schema as { type?: unknown }).type;
  if (type !== undefined && type !== "object") return `its inputSchema's type is ${JSON.stringify(type)}, not "object"`;
  return null;
};

/**
 * The tools the page registered (through `modelContext.registerTool` or `<form toolname>`,
 * as Chromium's WebMCP domain reports them) and whether their schemas hold: Chromium's own
 * findings on annotated forms (Lighthouse 13.5's `webmcp-schema-validity` errors and warnings,
 * by the same rules: an error fails, warnings only warn) and each tool's input schema checked
 * as JSON Schema with ajv. Skips where the page registers nothing, or the browser has no WebMCP.
 *
 * Where it differs from Lighthouse's: Lighthouse 13.5's audit reads only Chromium's issues about
 * annotated forms, so an imperative tool registered with an inputSchema that is no JSON Schema
 * (`{ type: "objekt", properties: 5 }`, which Chromium 156 accepts and reports as given) passes
 * there and fails here. The audit's own title promises valid schemas and an agent cannot build
 * arguments from a broken one, so this check keeps judging them
 * (tests/fixtures/agentic/render-webmcp-tool-invalid).
 */
export const webmcpSchemaValidity = defineCheck({
  id: "webmcp-schema-validity",
  category: "geo",
  severity: "warning",
  maxScore: 3,
  quick: false,
  title: "WebMCP tools have valid schemas",
  run: (page) => {
    const read = webmcpOf(page);
    if ("skip" in read) return { status: "skip", description: read.skip ?? UNSUPPORTED };
    const { tools, formIssues } = read.webmcp;
    if (tools.length === 0 && formIssues.length === 0) {
      return { status: "skip", description: "The page registers no WebMCP tool." };
    }
    const broken = tools
      .map((tool) => ({ tool: tool.name, problem: schemaProblem(tool) }))
      .filter((entry): entry is { tool: string; problem: string } => entry.problem !== null);
    const errors = formIssues.filter((issue) => FORM_ERRORS.has(issue.type));
    const warnings = formIssues.filter((issue) => !FORM_ERRORS.has(issue.type));
    const names = tools.map((tool) => tool.name).slice(0, 5);
    const listed = tools.length ? `${plural(tools.length, "tool")} (${names.join(", ")})` : "no tool";
    if (broken.length === 0 && formIssues.length === 0) {
      return { status: "pass", description: `The page registers ${listed}, each with a valid input schema.` };
    }
    const found = [
      ...broken.map((entry) => `${entry.tool}: ${entry.problem}`),
      ...[...errors, ...warnings].map((issue) => FORM_ISSUE_WORDS[issue.type] ?? issue.type),
    ];
    return {
      status: broken.length > 0 || errors.length > 0 ? "fail" : "warn",
      description: `The page registers ${listed}; ${plural(found.length, "problem")}: ${found.slice(0, 4).join("; ")}.`,
      fix: 'Give each tool an inputSchema that is a JSON Schema of type "object" describing its arguments, each annotated form a toolname and tooldescription, and each field a name and a description (toolparamdescription or a label).',
      evidence: found,
    };
  },
});
