import { defineCheck } from "../check";
import { agentCaptureOf, plural } from "./render-capture";

/**
 * Whether an agent reading the accessibility tree can tell the page's controls apart: axe-core
 * 4.14 (the library, injected into the rendered page) with exactly the 33 rules of Lighthouse
 * 13.5's `agent-accessibility-tree` (names of buttons, links, inputs and selects, labels, valid
 * ARIA roles, attributes and values, tabindex, autocomplete, duplicate ARIA ids...; the list is
 * AGENT_AXE_RULES in the scanner's agent-capture.ts). Any violation fails, as Lighthouse's
 * audit does. Rules that need review (axe's "incomplete") are not violations, there or here.
 *
 * Where the render differs from Lighthouse's: the scan does not load stylesheets, so an element
 * a stylesheet hides is judged as visible here (axe skips hidden elements for some rules);
 * the fixture pages agree (tests/lighthouse-agentic-agreement.test.ts).
 */
/** how a skip for want of time begins: a run that did not finish says nothing of the page's controls */
export const AXE_UNFINISHED = "Not measured: axe-core had not finished in the";

export const agentAccessibilityTree = defineCheck({
  id: "agent-accessibility-tree",
  category: "geo",
  severity: "warning",
  maxScore: 4,
  quick: false,
  title: "Controls have names and valid ARIA an agent can read",
  run: (page) => {
    const found = agentCaptureOf(page);
    if ("why" in found) return { status: "skip", description: `Not measured: ${found.why}.` };
    const { axe, axeUnfinishedAfterMs } = found.capture;
    // a verdict is never guessed from a run that did not finish: the time it had is said instead
    if (!axe && axeUnfinishedAfterMs !== undefined)
      return {
        status: "skip",
        description: `${AXE_UNFINISHED} ${(axeUnfinishedAfterMs / 1000).toFixed(1)} s the scan had left for it (a page or machine this busy); scan again for a verdict.`,
      };
    if (!axe)
      return { status: "skip", description: "axe-core could not run in the rendered page (its scripts kept it busy)." };
    if (axe.violations.length === 0) {
      return {
        status: "pass",
        description: `axe-core ${axe.version} finds no violation of the 33 rules an agent's accessibility tree depends on.`,
      };
    }
    const named = axe.violations
      .slice(0, 5)
      .map(
        (violation) => `${violation.rule} (${plural(violation.nodes, "element")}, e.g. ${violation.targets[0] ?? "?"})`,
      );
    const nodes = axe.violations.reduce((sum, violation) => sum + violation.nodes, 0);
    return {
      status: "fail",
      description: `axe-core ${axe.version} finds ${plural(axe.violations.length, "rule")} violated on ${plural(nodes, "element")}: ${named.join("; ")}${axe.violations.length > 5 ? "; ..." : ""}.`,
      fix: `Give every control an accessible name and valid ARIA: ${axe.violations
        .slice(0, 3)
        .map((violation) => `${violation.help.replace(/\.$/, "")} (${violation.targets[0] ?? violation.rule})`)
        .join("; ")}. Agents act on the accessibility tree: an unnamed button or link is one they cannot choose.`,
      evidence: axe.violations.flatMap((violation) => [violation.rule, ...violation.targets]),
    };
  },
});
