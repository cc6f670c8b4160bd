import { allChecks, checksFor, quickChecks } from "./registry";

describe("the catalogue", () => {
  it("has 57 checks with unique ids, 20 of them in the quick scan", () => {
    expect(allChecks).toHaveLength(57);
    expect(new Set(allChecks.map((check) => check.id)).size).toBe(57);
    expect(quickChecks).toHaveLength(20);
    expect(checksFor("quick")).toBe(quickChecks);
    expect(checksFor("full")).toBe(allChecks);
  });

  it("orders the areas as checks.md does: SEO, AEO, GEO", () => {
    const areas = allChecks.map((check) => check.category);
    expect(areas.indexOf("aeo")).toBe(24);
    expect(areas.indexOf("geo")).toBe(39);
    expect(allChecks.slice(53).map((check) => check.id)).toEqual([
      "agent-accessibility-tree",
      "webmcp-form-coverage",
      "webmcp-schema-validity",
      "cumulative-layout-shift",
    ]);
  });
});
