import { geoChecks } from "./index";

// docs/spec/checks.md's GEO table: id, quick, severity, max
const CATALOGUE = [
  ["ai-search-access", true, "critical", 8],
  ["bot-access-parity", false, "warning", 4],
  ["llms-txt", true, "warning", 5],
  ["llms-txt-format", false, "info", 3],
  ["ai-snippet-directives", true, "warning", 4],
  ["raw-html-content", false, "critical", 8],
  ["statistics", false, "info", 3],
  ["citations-outbound", false, "info", 3],
  ["quotations", false, "info", 2],
  ["author", true, "warning", 3],
  ["publish-date", false, "info", 2],
  ["freshness", false, "info", 2],
  ["entity-sameas", false, "info", 2],
  ["trust-pages", false, "info", 2],
] as const;

describe("geoChecks", () => {
  it("lists the 14 GEO checks of checks.md in its order with its catalogue fields", () => {
    expect(geoChecks.map((check) => [check.id, check.quick, check.severity, check.maxScore])).toEqual(CATALOGUE);
    expect(geoChecks.every((check) => check.category === "geo")).toBe(true);
  });
});
