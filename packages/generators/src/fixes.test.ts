import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import type { CheckResult } from "@scan/contract";
import { FixOptions, fixes } from "./fixes";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt } from "./fixture-pages";

const product = pageAt("/shoes/trail-runner-3", PRODUCT_PAGE);
const at = { scannedAt: FIXED_SCAN_TIME };

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
    const out = fixes(product, at);
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
    const out = fixes(product, { issues, ...at });
    const present = (["llmsTxt", "jsonLd", "robotsTxt"] as const).filter((key) => out[key] !== null);
    expect(present).toEqual(files);
  });

  it("says which asked-for checks it cannot fix on this page, and why", () => {
    const out = fixes(pageAt("/news/mains", ARTICLE_PAGE), {
      issues: ["faq-schema", "title", "author", "twitter-card"],
      ...at,
    });
    expect(out.jsonLd?.addresses).toContain("author");
    expect(out.unaddressed).toEqual([
      { id: "faq-schema", reason: expect.stringMatching(/^It does not apply to this page: Not applicable/) },
      { id: "title", reason: 'It already passes: Title: "Why winter breaks water mains - City Desk".' },
      {
        id: "twitter-card",
        reason: expect.stringMatching(
          /^No generated file fixes this check; what to change: Add <meta name="twitter:card"/,
        ),
      },
    ]);
    expect(out.llmsTxt).toBeNull();
    expect(out.robotsTxt).toBeNull();
  });

  it("proves its files on a copy of the page: verdicts and scores before and after", () => {
    const out = fixes(pageAt("/news/mains", ARTICLE_PAGE), at);
    const after = Object.fromEntries(out.proof.checks.map((check) => [check.id, check]));
    for (const file of [out.llmsTxt, out.jsonLd, out.robotsTxt]) {
      for (const id of file?.addresses ?? []) expect([id, after[id]?.after]).toEqual([id, "pass"]);
    }
    expect(after["structured-data"]).toMatchObject({ before: "fail", after: "pass" });
    expect(after["llms-txt"]).toMatchObject({ before: "warn", after: "pass" });
    expect(out.proof.after.scores.overall).toBeGreaterThan(out.proof.before.scores.overall);
    expect(out.proof.scannedAt).toBe(FIXED_SCAN_TIME.toISOString());
  });

  it("lists only checks that pass in addresses, and says what the owner must still supply", () => {
    // an Organization named by og:site_name, with no logo anywhere on the page
    const out = fixes(
      pageAt("/news/mains", ARTICLE_PAGE.replace("<head>", '<head><meta property="og:site_name" content="City Desk">')),
      at,
    );
    expect(out.jsonLd?.addresses).not.toContain("organization-schema");
    expect(out.jsonLd?.ownerMustSupply).toContainEqual({
      id: "organization-schema",
      before: "fail",
      after: "warn",
      what: expect.stringMatching(/^a logo: the page shows no image that says it is the site's logo/),
    });
  });

  it("adds no partial Article where article-schema does not apply: it would turn a skip into a warning", () => {
    const html = `<html lang="en"><head><title>A note on pipes - City Desk</title><meta property="og:type" content="article"></head>
<body><main><h1>A note on pipes</h1><p>Pipes crack when the ground freezes and thaws again, most of them laid before 1930.</p></main></body></html>`;
    const out = fixes(pageAt("/notes/pipes", html), at);
    expect(out.jsonLd?.types).not.toContain("Article");
    expect(out.jsonLd?.ownerMustSupply).toContainEqual(
      expect.objectContaining({
        id: "article-schema",
        what: expect.stringMatching(/^an author and a publication date shown on the page/),
      }),
    );
    const article = out.proof.checks.find((check) => check.id === "article-schema");
    expect(article).toMatchObject({ before: "skip", after: "skip" });
  });

  it("carries the scan's verdicts on the checks each file addresses", () => {
    const checks = [result("llms-txt", "warn"), result("llms-txt-format", "skip"), result("title", "pass")];
    const out = fixes(product, { checks, ...at });
    expect(out.llmsTxt?.verdicts).toEqual({ "llms-txt": "warn", "llms-txt-format": "skip" });
    expect(out.jsonLd?.verdicts).toEqual({});
  });

  it("adds an ai-catalog.json whose site checks pass on the patched copy, with no page verdict changed by its link", () => {
    const out = fixes(pageAt("/news/mains", ARTICLE_PAGE), { issues: ["ai-catalog-schema"], ...at });
    expect(out.aiCatalog?.addresses).toEqual(["ai-catalog", "ai-catalog-schema"]);
    expect(out.aiCatalog?.link).toBe('<link rel="ai-catalog" href="/.well-known/ai-catalog.json">');
    expect(out.proof.siteChecks.map(({ id, before, after }) => ({ id, before, after }))).toEqual([
      { id: "ai-catalog", before: "skip", after: "pass" },
      { id: "ai-catalog-schema", before: "skip", after: "pass" },
    ]);
    expect(out.proof.checks.filter((check) => check.before !== check.after)).toEqual([]);
    expect(out.unaddressed).toEqual([]);
    expect([out.llmsTxt, out.jsonLd, out.robotsTxt, out.webmcpForms]).toEqual([null, null, null, null]);
  });

  const FORM_PAGE = ARTICLE_PAGE.replace(
    "</article>",
    '</article><form id="letters"><fieldset><legend>Write to the editor</legend><label>Your letter <textarea name="letter"></textarea></label><button>Send</button></fieldset></form>',
  );
  const webmcp = (supported: boolean) => ({
    agent: { axe: null, webmcp: { supported, tools: [], formIssues: [] }, layoutShift: null },
  });

  it("annotates bare forms and addresses webmcp-form-coverage only where the re-check, with WebMCP read, passes", () => {
    const out = fixes(pageAt("/news/mains", FORM_PAGE, webmcp(true)), { issues: ["webmcp-form-coverage"], ...at });
    expect(out.webmcpForms?.addresses).toEqual(["webmcp-form-coverage"]);
    expect(out.webmcpForms?.forms[0]).toMatchObject({
      toolname: "letters",
      tooldescription: 'Write to the editor. Fields: Your letter. Submit: "Send".',
    });
    expect(out.proof.checks).toContainEqual(
      expect.objectContaining({ id: "webmcp-form-coverage", before: "warn", after: "pass" }),
    );
    expect(out.proof.checks.filter((check) => check.before !== check.after).map((check) => check.id)).toEqual([
      "webmcp-form-coverage",
    ]);
  });

  it("keeps webmcp-form-coverage out of addresses where this Chromium has no WebMCP, and says what the re-check cannot show", () => {
    const out = fixes(pageAt("/news/mains", FORM_PAGE, webmcp(false)), { issues: ["webmcp-form-coverage"], ...at });
    expect(out.webmcpForms?.addresses).toEqual([]);
    expect(out.webmcpForms?.ownerMustSupply).toEqual([
      { id: "webmcp-form-coverage", before: "skip", after: "skip", what: out.webmcpForms?.recheck },
    ]);
    expect(out.unaddressed).toEqual([
      {
        id: "webmcp-form-coverage",
        reason: expect.stringMatching(
          /^The files could not be judged on the patched copy: This scan's Chromium exposes no WebMCP/,
        ),
      },
    ]);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(fixes(product, at))).toBe(JSON.stringify(fixes(structuredClone(product), at)));
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
    expect(FixOptions.safeParse({ issues: ["ai-catalog", "ai-catalog-schema"] }).success).toBe(true);
    expect(FixOptions.safeParse({ issues: "title" }).success).toBe(false);
    expect(FixOptions.safeParse({ issues: [], extra: 1 }).success).toBe(false);
  });
});
