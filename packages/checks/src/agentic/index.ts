import type { CheckDefinition } from "../check";
import { agentAccessibilityTree } from "./agent-accessibility-tree.check";
import { cumulativeLayoutShift } from "./layout-shift.check";
import { webmcpFormCoverage, webmcpSchemaValidity } from "./webmcp.check";

/**
 * The agentic-browsing page checks, judged on what the full scan's render measured (the site
 * files, llms.txt and ai-catalog.json, are judged by llms-txt-format and the audit's site
 * checks). They weigh in geo: docs/checks.md, "Agentic readiness".
 */
export const agenticChecks: readonly CheckDefinition[] = [
  agentAccessibilityTree,
  webmcpFormCoverage,
  webmcpSchemaValidity,
  cumulativeLayoutShift,
];
