import { FIXED_SCAN_TIME, snapshotOf } from "./fixture";
import { allChecks } from "./registry";
import { runChecks } from "./run";

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
