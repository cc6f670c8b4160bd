import { aeoChecks } from "./index";

// docs/spec/checks.md's AEO table: id, quick, severity, max
const CATALOGUE = [
  ["structured-data", true, "warning", 6],
  ["organization-schema", true, "warning", 4],
  ["faq-schema", false, "info", 4],
  ["article-schema", false, "info", 3],
  ["breadcrumb-schema", false, "info", 2],
  ["speakable", false, "info", 1],
  ["qa-content", true, "warning", 4],
  ["answer-first", false, "info", 3],
  ["summary-intro", false, "info", 2],
  ["lists-and-tables", false, "info", 2],
  ["content-depth", true, "warning", 4],
  ["subheadings", false, "info", 2],
  ["semantic-landmarks", false, "info", 2],
  ["readability", false, "info", 2],
  ["anchor-ids", false, "info", 1],
] as const;

describe("aeoChecks", () => {
  it("lists the 15 AEO checks of checks.md in its order with its catalogue fields", () => {
    expect(aeoChecks.map((check) => [check.id, check.quick, check.severity, check.maxScore])).toEqual(CATALOGUE);
    expect(aeoChecks.every((check) => check.category === "aeo")).toBe(true);
  });
});
