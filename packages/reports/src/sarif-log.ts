import { randomUUID } from "node:crypto";
import type { ToolInfo } from "./page-report";
import { type RuleSet, SARIF_SCHEMA_URI } from "./sarif-run";

/**
 * The log around one run (sarif-run.ts makes what goes in it): as one string, or in parts for a
 * log too large to hold, with the same layout.
 */

type RunParts = {
  executionSuccessful: boolean;
  /** null: none, and the invocation says nothing of them */
  toolExecutionNotifications: unknown;
  artifacts: unknown;
  results: unknown;
  properties?: Record<string, unknown> | undefined;
};

/** The log's value around one run: the one layout of the file written whole and of the file written in parts. */
const logOf = (tool: ToolInfo, rules: RuleSet, run: RunParts) => ({
  $schema: SARIF_SCHEMA_URI,
  version: "2.1.0",
  runs: [
    {
      tool: {
        driver: { name: tool.name, version: tool.version, semanticVersion: tool.version, rules: rules.rules },
      },
      invocations: [
        {
          executionSuccessful: run.executionSuccessful,
          ...(run.toolExecutionNotifications === null
            ? {}
            : { toolExecutionNotifications: run.toolExecutionNotifications }),
        },
      ],
      artifacts: run.artifacts,
      results: run.results,
      ...(run.properties ? { properties: run.properties } : {}),
    },
  ],
});

/** The log around one run, as a file. */
export const sarifLog = (
  tool: ToolInfo,
  rules: RuleSet,
  run: {
    invocation: { executionSuccessful: boolean; toolExecutionNotifications: unknown[] };
    artifacts: unknown[];
    results: unknown[];
    properties?: Record<string, unknown>;
  },
): string => {
  const { executionSuccessful, toolExecutionNotifications } = run.invocation;
  const log = logOf(tool, rules, {
    executionSuccessful,
    toolExecutionNotifications: toolExecutionNotifications.length > 0 ? toolExecutionNotifications : null,
    artifacts: run.artifacts,
    results: run.results,
    properties: run.properties,
  });
  return `${JSON.stringify(log, null, 2)}\n`;
};

/**
 * An array of the log written element by element, as `JSON.stringify(log, null, 2)` lays it
 * out: `before` is the text from the end of the previous array to this one's key, `item` an
 * element (the opening bracket with the first), `end` the closing bracket.
 */
export type JsonArrayParts = { before: string; item: (value: unknown) => string; end: () => string };

const arrayParts = (before: string): JsonArrayParts => {
  // the array's key begins a line: its elements go two spaces further in, its bracket closes at the key's depth
  const indent = /[^\n]*$/.exec(before)?.[0].match(/^ */)?.[0] ?? "";
  let count = 0;
  return {
    before,
    item: (value) =>
      `${count++ === 0 ? "[" : ","}\n${indent}  ${JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}  `)}`,
    end: () => (count === 0 ? "[]" : `\n${indent}]`),
  };
};

/**
 * The log around one run whose notifications (when it has any), artifacts and results are
 * written element by element, for a log too large to hold: the same text as `sarifLog` with the
 * same elements, in parts. The rules must be complete: they come first.
 */
export const sarifLogInParts = (
  tool: ToolInfo,
  rules: RuleSet,
  run: { executionSuccessful: boolean; notifications: boolean; properties?: Record<string, unknown> },
): {
  toolExecutionNotifications: JsonArrayParts | null;
  artifacts: JsonArrayParts;
  results: JsonArrayParts;
  /** what follows the results */
  tail: string;
} => {
  // each array is a mark in the log written whole, a string nothing else in it can be
  const mark = `\u0000${randomUUID()}`;
  const names = ["toolExecutionNotifications", "artifacts", "results"] as const;
  const text = JSON.stringify(
    logOf(tool, rules, {
      executionSuccessful: run.executionSuccessful,
      toolExecutionNotifications: run.notifications ? `${mark}:toolExecutionNotifications` : null,
      artifacts: `${mark}:artifacts`,
      results: `${mark}:results`,
      properties: run.properties,
    }),
    null,
    2,
  );
  let rest = `${text}\n`;
  const parts = new Map<(typeof names)[number], JsonArrayParts>();
  for (const name of names) {
    const quoted = JSON.stringify(`${mark}:${name}`);
    const at = rest.indexOf(quoted);
    if (at < 0) continue;
    parts.set(name, arrayParts(rest.slice(0, at)));
    rest = rest.slice(at + quoted.length);
  }
  const artifacts = parts.get("artifacts");
  const results = parts.get("results");
  if (!artifacts || !results) throw new Error("the SARIF log lost its artifacts or results");
  return {
    toolExecutionNotifications: parts.get("toolExecutionNotifications") ?? null,
    artifacts,
    results,
    tail: rest,
  };
};
