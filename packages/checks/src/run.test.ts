import { type CheckDefinition, defineCheck } from "./check";
import { FIXED_SCAN_TIME, snapshotOf } from "./fixture";
import { allChecks } from "./registry";
import { CHECKS_YIELD_AFTER_MS, runChecks, runChecksYielding } from "./run";

describe("runChecks", () => {
  it.each([
    ["an empty document", ""],
    ["a bare script fragment", "<script>var a = 1;</script>"],
    ["text without markup", "just some words"],
  ])("judges %s with every check, none of them crashing", (_name, html) => {
    const results = runChecks(snapshotOf(html), { mode: "full", scannedAt: FIXED_SCAN_TIME });
    expect(results.map((result) => result.id)).toEqual(allChecks.map((check) => check.id));
    for (const result of results) expect(result.description).not.toMatch(/could not run on this page/);
  });
});

describe("runChecksYielding", () => {
  /** a check under a catalogue id (every result names its evidence grade) that keeps the thread busy */
  const busy = (id: string, order: string[], holdMs: number): CheckDefinition =>
    defineCheck({
      id,
      category: "seo",
      severity: "info",
      maxScore: 1,
      quick: true,
      title: id,
      run: () => {
        order.push(id);
        const until = performance.now() + holdMs;
        while (performance.now() < until) order.length;
        return { status: "pass", description: "done" };
      },
    });

  it("gives the same results as runChecks", async () => {
    const snapshot = snapshotOf("<html lang=en><head><title>A page</title></head><body><h1>Words</h1></body></html>");
    const options = { mode: "full", scannedAt: FIXED_SCAN_TIME } as const;
    expect(await runChecksYielding(snapshot, options)).toEqual(runChecks(snapshot, options));
  });

  it("lets the event loop run between checks that have held it long enough, and not between quick ones", async () => {
    const order: string[] = [];
    const snapshot = snapshotOf("<title>x</title>");
    const [slow = "", quick1 = "", quick2 = ""] = allChecks.map((check) => check.id);
    const only = [busy(slow, order, CHECKS_YIELD_AFTER_MS), busy(quick1, order, 0), busy(quick2, order, 0)];
    setImmediate(() => order.push("event loop"));
    const results = await runChecksYielding(snapshot, { mode: "full", scannedAt: FIXED_SCAN_TIME, only });
    expect(order).toEqual([slow, "event loop", quick1, quick2]);
    expect(results.map((result) => result.status)).toEqual(["pass", "pass", "pass"]);
  });

  it("reports a check that throws as a skip, as runChecks does", async () => {
    const broken = defineCheck({
      ...busy(allChecks[0]?.id ?? "", [], 0),
      run: () => {
        throw new Error("a bug");
      },
    });
    const [result] = await runChecksYielding(snapshotOf(""), {
      mode: "full",
      scannedAt: FIXED_SCAN_TIME,
      only: [broken],
    });
    expect(result).toMatchObject({ status: "skip", description: "The check could not run on this page: a bug" });
  });
});
