import { AXE_UNFINISHED } from "@scan/checks";
import { type AgenticSite, NOT_FOUND } from "./support/agentic-sites";
import { scanSiteFull } from "./support/loopback-scanner";

/**
 * axe is given what is left of the scan's budget, and a run that has not finished by then is
 * reported as not measured, with the time it had, never as a verdict (docs/checks.md,
 * agent-accessibility-tree). The slow page makes axe's work, not the machine, the reason: its own
 * script makes every style lookup (axe asks one per element it judges) take 200 ms, so axe over
 * its 200 buttons needs 40 s, whatever the machine's load; its DOM is read at once, as axe does
 * not run until the DOM has been serialised.
 */

const BUTTONS = Array.from({ length: 200 }, (_, index) => `<button>Choice ${index}</button>`).join("\n");
const page = (script: string): AgenticSite => ({
  id: "fixture/axe-budget",
  pagePath: "/",
  answer: (path) =>
    path === "/"
      ? {
          status: 200,
          contentType: "text/html; charset=utf-8",
          headers: {},
          body: `<!DOCTYPE html><html lang="en"><head><title>Choices</title><script>${script}</script></head><body><h1>Choices</h1>${BUTTONS}</body></html>`,
        }
      : NOT_FOUND,
});
// every style lookup busy for 200 ms: only axe asks for styles in this page
const SLOW_STYLES =
  "const styleOf = window.getComputedStyle.bind(window); window.getComputedStyle = (element, pseudo) => { const until = Date.now() + 200; while (Date.now() < until) {} return styleOf(element, pseudo); };";

describe("agent-accessibility-tree when axe has not finished in the scan's budget", () => {
  it("reports the page as not measured, with the time axe had, and judges everything else", async () => {
    const scanned = await scanSiteFull(page(SLOW_STYLES), 8_000);
    expect(scanned.outcome.rendered).toBe(true);
    expect(scanned.snapshot.agent?.axe).toBeNull();
    // what was left of 8 s after the fetch and the render
    expect(scanned.snapshot.agent?.axeUnfinishedAfterMs).toBeGreaterThan(0);
    expect(scanned.snapshot.agent?.axeUnfinishedAfterMs).toBeLessThanOrEqual(8_000);
    const check = scanned.outcome.checks.find((result) => result.id === "agent-accessibility-tree");
    expect(check?.status).toBe("skip");
    expect(check?.description.startsWith(AXE_UNFINISHED)).toBe(true);
    expect(check?.description).toMatch(/scan again for a verdict/);
    // the rest of the render's measurements are there
    expect(scanned.snapshot.agent?.layoutShift).not.toBeNull();
    expect(scanned.outcome.checks.find((result) => result.id === "h1")?.status).toBe("pass");
  });

  it("gives a verdict on the same page when its styles are not slowed", async () => {
    const scanned = await scanSiteFull(page(""), 20_000);
    expect(scanned.snapshot.agent?.axe).not.toBeNull();
    expect(scanned.snapshot.agent?.axeUnfinishedAfterMs).toBeUndefined();
    const check = scanned.outcome.checks.find((result) => result.id === "agent-accessibility-tree");
    expect(check?.status).toBe("pass");
  });
});
