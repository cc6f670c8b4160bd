import type { Paint } from "@scan/reports";
import type { AssertionResult } from "./assertions";

/** What the assertions found, for stderr: the failures, worst first, and a count of the rest. */
export const formatSummary = (results: readonly AssertionResult[], paint: Paint): string => {
  if (results.length === 0) return "";
  const failed = results.filter((result) => !result.passed);
  const errors = failed.filter((result) => result.level === "error");
  const warnings = failed.filter((result) => result.level === "warn");
  const passed = results.length - failed.length;
  if (failed.length === 0) return `${paint.good(`Assertions: all ${results.length} passed`)}\n`;
  const head = `Assertions: ${errors.length} error${errors.length === 1 ? "" : "s"}, ${warnings.length} warning${warnings.length === 1 ? "" : "s"}, ${passed} passed`;
  const width = Math.max(...failed.map((result) => result.key.length));
  const lines = [...errors, ...warnings].map((result) => {
    const level = result.level === "error" ? paint.bad("error") : paint.warn("warn ");
    return `  ${level}  ${result.key.padEnd(width)}  ${result.message}`;
  });
  return `${errors.length > 0 ? paint.bad(head) : paint.warn(head)}\n${lines.join("\n")}\n`;
};
