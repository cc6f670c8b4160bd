import type { AgentCapture } from "@scan/contract";
import type { Page } from "../page";

/**
 * The render's agentic measurements, or why there are none: only a full scan that rendered
 * the page measures them (quick scans skip the cost; docs/checks.md).
 */
export const agentCaptureOf = (page: Page): { capture: AgentCapture } | { why: string } => {
  const { snapshot } = page;
  if (snapshot.agent) return { capture: snapshot.agent };
  if (!snapshot.rendered) return { why: "the page was not rendered, so nothing was measured in a browser" };
  return { why: "this scan did not measure the render (only full scans do)" };
};

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
