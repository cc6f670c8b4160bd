import { auditPageJob, auditStepJob, schedulePattern } from "./audit-jobs";
import { AUDIT_PAGE_PRIORITY, INTERACTIVE_PRIORITY_CEILING, PlanPriorityWeights, scanPriority } from "./priority";
import { scanJob } from "./scan-job";

describe("queue priorities", () => {
  it("read the plan weights, and refuse a list that leaves a plan out or weighs one 0", () => {
    expect(PlanPriorityWeights.parse(undefined)).toEqual({ agency: 1, pro: 2, starter: 4, free: 8, anonymous: 16 });
    expect(PlanPriorityWeights.parse("agency=1, pro=1,starter=1,free=3,anonymous=9")).toMatchObject({ free: 3 });
    expect(PlanPriorityWeights.safeParse("agency=1,pro=2").success).toBe(false);
    expect(PlanPriorityWeights.safeParse("agency=0,pro=2,starter=4,free=8,anonymous=16").success).toBe(false);
  });

  it("keep every interactive scan ahead of every audit page", () => {
    expect(scanPriority(0, 8)).toBe(1);
    expect(scanPriority(3, 8)).toBe(25);
    expect(scanPriority(10_000_000, 16)).toBe(INTERACTIVE_PRIORITY_CEILING);
    expect(scanJob({ id: "a", url: "https://example.com/", mode: "full" }, 10_000_000).opts.priority).toBeLessThan(
      AUDIT_PAGE_PRIORITY,
    );
    expect(scanJob({ id: "a", url: "https://example.com/", mode: "full" }, 0).opts.priority).toBe(1);
    const page = auditPageJob({ auditId: "x", pageId: "p", url: "https://example.com/", mode: "full" });
    expect(page.opts.priority).toBe(AUDIT_PAGE_PRIORITY);
    expect(auditStepJob("discover", { auditId: "x" }).opts.priority).toBeLessThan(page.opts.priority);
  });

  it("give a site's schedule the same time on every run, a weekday only when weekly", () => {
    const siteId = "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f";
    expect(schedulePattern(siteId, "daily")).toBe(schedulePattern(siteId, "daily"));
    expect(schedulePattern(siteId, "daily")).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
    expect(schedulePattern(siteId, "weekly")).toMatch(/^\d{1,2} \d{1,2} \* \* [0-6]$/);
    expect(schedulePattern(siteId, "weekly").startsWith(schedulePattern(siteId, "daily").slice(0, -1))).toBe(true);
  });
});
