import type { CheckResult } from "@scan/contract";
import { FixOptions, fixes } from "./fixes";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt } from "./fixture-pages";

const product = pageAt("/shoes/trail-runner-3", PRODUCT_PAGE);

const result = (id: string, status: CheckResult["status"]): CheckResult => ({
  id,
  category: "aeo",
  status,
  score: 0,
  maxScore: 1,
  severity: "info",
  title: id,
  description: "",
  fix: "",
});

describe("fixes", () => {
  it("answers all three files without issues, each saying which checks it addresses", () => {
    const out = fixes(product);
    expect(out.url).toBe(`${ORIGIN}/shoes/trail-runner-3`);
    expect(out.llmsTxt?.addresses).toEqual(["llms-txt", "llms-txt-format"]);
    expect(out.robotsTxt?.addresses).toEqual(["ai-search-access", "robots-txt"]);
    expect(out.jsonLd?.addresses).toEqual([
      "structured-data",
      "organization-schema",
      "faq-schema",
      "breadcrumb-schema",
    ]);
    expect(out.unaddressed).toEqual([]);
    expect(out.llmsTxt?.verdicts).toEqual({});
  });

  it.each([
    [["llms-txt-format"], ["llmsTxt"]],
    [["ai-search-access"], ["robotsTxt"]],
    [
      ["faq-schema", "robots-txt"],
      ["jsonLd", "robotsTxt"],
    ],
    [
      ["organization-schema", "llms-txt"],
      ["llmsTxt", "jsonLd"],
    ],
    [[], []],
  ])("restricts the files to those addressing %j", (issues, files) => {
    const out = fixes(product, { issues });
    const present = (["llmsTxt", "jsonLd", "robotsTxt"] as const).filter((key) => out[key] !== null);
    expect(present).toEqual(files);
  });

  it("says which asked-for checks it cannot fix on this page, and why", () => {
    const out = fixes(pageAt("/news/mains", ARTICLE_PAGE), { issues: ["faq-schema", "title", "author"] });
    expect(out.jsonLd?.addresses).toContain("author");
    expect(out.unaddressed).toEqual([
      { id: "faq-schema", reason: expect.stringMatching(/does not carry the data/) },
      { id: "title", reason: expect.stringMatching(/No generated file fixes this check/) },
    ]);
    expect(out.llmsTxt).toBeNull();
    expect(out.robotsTxt).toBeNull();
  });

  it("carries the scan's verdicts on the checks each file addresses", () => {
    const checks = [result("llms-txt", "warn"), result("llms-txt-format", "skip"), result("title", "pass")];
    const out = fixes(product, { checks });
    expect(out.llmsTxt?.verdicts).toEqual({ "llms-txt": "warn", "llms-txt-format": "skip" });
    expect(out.jsonLd?.verdicts).toEqual({});
  });

  it("is deterministic", () => {
    expect(JSON.stringify(fixes(product))).toBe(JSON.stringify(fixes(structuredClone(product))));
  });
});

describe("FixOptions", () => {
  it("takes check ids of the catalogue and refuses others", () => {
    expect(FixOptions.safeParse({ issues: ["structured-data", "title"] }).success).toBe(true);
    expect(FixOptions.safeParse({}).success).toBe(true);
    const bad = FixOptions.safeParse({ issues: ["structured-data", "seo"] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ["issues", 1],
      message: "must be a check id of the catalogue (checks.md), such as structured-data",
    });
    expect(FixOptions.safeParse({ issues: "title" }).success).toBe(false);
    expect(FixOptions.safeParse({ issues: [], extra: 1 }).success).toBe(false);
  });
});
