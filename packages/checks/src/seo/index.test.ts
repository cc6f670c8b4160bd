import { seoChecks } from "./index";

// docs/spec/checks.md's SEO table: id, quick, severity, max
const CATALOGUE = [
  ["http-status", true, "critical", 10],
  ["redirect-chain", false, "warning", 3],
  ["https", true, "critical", 6],
  ["ttfb", true, "info", 3],
  ["title", true, "critical", 8],
  ["title-length", true, "warning", 3],
  ["meta-description", true, "warning", 6],
  ["meta-description-length", false, "info", 2],
  ["indexable", true, "critical", 10],
  ["canonical", true, "warning", 5],
  ["h1", true, "warning", 5],
  ["heading-order", false, "info", 2],
  ["lang", true, "warning", 3],
  ["viewport", true, "warning", 4],
  ["charset", false, "info", 2],
  ["image-alt", false, "warning", 4],
  ["link-text", false, "info", 2],
  ["crawlable-anchors", false, "warning", 3],
  ["hreflang", false, "info", 2],
  ["robots-txt", true, "warning", 3],
  ["sitemap", false, "info", 2],
  ["open-graph", false, "info", 2],
  ["twitter-card", false, "info", 1],
  ["mixed-content", false, "warning", 2],
] as const;

describe("seoChecks", () => {
  it("lists the 24 SEO checks of checks.md in its order with its catalogue fields", () => {
    expect(seoChecks.map((check) => [check.id, check.quick, check.severity, check.maxScore])).toEqual(CATALOGUE);
    expect(seoChecks.every((check) => check.category === "seo")).toBe(true);
  });
});
