import { type AiCatalogDiscovery, aiCatalogSignals, allChecks, CHECK_EVIDENCE } from "@scan/checks";
import type { CheckResult } from "@scan/contract";
import type { PageFacts } from "./page-facts";
import { type AuditedPage, runSiteChecks, type SiteCheckInput, siteChecks } from "./site-checks";
import { buildSiteReport } from "./site-report";

const O = "https://site.example";

const facts = (change: Partial<PageFacts> = {}): PageFacts => ({
  title: null,
  description: null,
  canonical: null,
  hreflang: [],
  links: [],
  noindex: false,
  redirects: [],
  redirectLoop: false,
  ...change,
});

const page = (path: string, change: Partial<PageFacts> = {}, row: Partial<AuditedPage> = {}): AuditedPage => ({
  url: `${O}${path}`,
  status: "scanned",
  httpStatus: 200,
  inSitemap: false,
  facts: facts({ title: `Title of ${path}`, description: `About ${path}`, canonical: `${O}${path}`, ...change }),
  ...row,
});

const input = (pages: AuditedPage[], more: Partial<SiteCheckInput> = {}): SiteCheckInput => ({
  origin: O,
  pages,
  robots: { allowsGooglebot: (url) => !url.includes("/private/") },
  llmsTxt: null,
  extraAnswers: new Map(),
  ...more,
});

const findings = (pages: AuditedPage[], more: Partial<SiteCheckInput> = {}) =>
  Object.fromEntries(
    runSiteChecks(input(pages, more)).map((check) => [check.id, check.findings.map((finding) => finding.url)]),
  );

describe("site checks", () => {
  it("pass on a clean site, and skip what does not apply", () => {
    const results = runSiteChecks(input([page("/", { links: [`${O}/a`] }), page("/a", { links: [`${O}/`] })]));
    const statuses = Object.fromEntries(results.map((check) => [check.id, check.status]));
    expect(statuses).toEqual({
      "duplicate-titles": "pass",
      "duplicate-descriptions": "pass",
      "broken-internal-links": "pass",
      "canonical-targets": "pass",
      "sitemap-noindex": "skip",
      "sitemap-redirects": "skip",
      "sitemap-blocked": "skip",
      "sitemap-missing": "skip",
      "redirect-chains": "pass",
      "hreflang-return-links": "skip",
      "llms-txt-links": "skip",
      "ai-catalog": "skip",
      "ai-catalog-schema": "skip",
    });
    for (const check of results) expect(check.score).toBe(check.status === "pass" ? check.maxScore : 0);
  });

  it("find duplicates once per canonical URL, leaving out noindex and redirected pages", () => {
    const found = findings([
      page("/a", { title: "Same" }),
      page("/b", { title: "same" }),
      // /a?ref=x names /a canonical: the same page, not a duplicate
      page("/a?ref=x", { title: "Same", canonical: `${O}/a` }),
      page("/c", { title: "Other", noindex: true }),
      page("/d", { title: "Other" }),
      page("/old", { title: "Other", redirects: [{ url: `${O}/old`, status: 301 }] }),
    ]);
    expect(found["duplicate-titles"]).toEqual([`${O}/a`]);
  });

  it("find broken links with the pages linking to them, and canonicals that do not answer 200", () => {
    const results = runSiteChecks(
      input([
        page("/", { links: [`${O}/gone`, `${O}/down`, `${O}/fine`] }),
        page("/x", { links: [`${O}/gone`], canonical: `${O}/moved` }),
        page("/fine"),
        page("/gone", {}, { httpStatus: 404 }),
        page("/down", {}, { status: "failed", httpStatus: 500, facts: null }),
        page("/moved", { redirects: [{ url: `${O}/moved`, status: 301 }] }),
      ]),
    );
    const broken = results.find((check) => check.id === "broken-internal-links");
    expect(broken?.findings).toEqual([
      { url: `${O}/gone`, detail: "linked from 2 page(s) and answers 404", pages: [`${O}/`, `${O}/x`] },
      { url: `${O}/down`, detail: "linked from 1 page(s) and answers 500", pages: [`${O}/`] },
    ]);
    expect(broken?.description).toBe(`2 broken internal link targets: ${O}/gone, ${O}/down.`);
    expect(results.find((check) => check.id === "canonical-targets")?.findings.map((f) => f.url)).toEqual([
      `${O}/moved`,
    ]);
  });

  it("judge sitemap URLs, redirect chains, hreflang return links and llms.txt links", () => {
    const found = findings(
      [
        page(
          "/",
          {
            hreflang: [
              { lang: "de", href: `${O}/de` },
              { lang: "fr", href: `${O}/fr` },
            ],
          },
          { inSitemap: true },
        ),
        page("/de", { hreflang: [{ lang: "en", href: `${O}/` }] }),
        page("/fr"),
        page("/hidden", { noindex: true }, { inSitemap: true }),
        page("/old", { redirects: [{ url: `${O}/old`, status: 301 }] }, { inSitemap: true }),
        page("/private/x", {}, { status: "blocked", httpStatus: null, facts: null, inSitemap: true }),
        page("/deleted", {}, { httpStatus: 410, inSitemap: true }),
        page("/hop", {
          redirects: [
            { url: `${O}/hop`, status: 301 },
            { url: `${O}/hop2`, status: 302 },
          ],
        }),
      ],
      {
        llmsTxt: { url: `${O}/llms.txt`, status: 200, body: `# Site\n- [Home](/)\n- [Gone](${O}/nope): old\n` },
        extraAnswers: new Map([[`${O}/nope`, { status: 404, redirected: false, finalUrl: null }]]),
      },
    );
    expect(found["sitemap-noindex"]).toEqual([`${O}/hidden`]);
    expect(found["sitemap-redirects"]).toEqual([`${O}/old`]);
    expect(found["sitemap-blocked"]).toEqual([`${O}/private/x`]);
    expect(found["sitemap-missing"]).toEqual([`${O}/deleted`]);
    expect(found["redirect-chains"]).toEqual([`${O}/hop`]);
    expect(found["hreflang-return-links"]).toEqual([`${O}/`]);
    expect(found["llms-txt-links"]).toEqual([`${O}/nope`]);
  });
});

describe("evidence grades of site checks", () => {
  it("grades every site check, and grades nothing that is neither a page nor a site check", () => {
    const ids = new Set([...allChecks.map((c) => c.id), ...siteChecks.map((c) => c.id)]);
    expect(siteChecks.map((c) => c.id).filter((id) => !(id in CHECK_EVIDENCE))).toEqual([]);
    expect(Object.keys(CHECK_EVIDENCE).filter((id) => !ids.has(id))).toEqual([]);
  });

  it("carries the grade on every site check result", () => {
    const results = runSiteChecks(input([page("/")]));
    for (const result of results) expect([result.id, result.evidence]).toEqual([result.id, CHECK_EVIDENCE[result.id]]);
  });
});

describe("site report", () => {
  const check = (
    id: string,
    status: CheckResult["status"],
    category: CheckResult["category"] = "seo",
  ): CheckResult => ({
    id,
    category,
    status,
    score: status === "pass" ? 10 : status === "warn" ? 5 : 0,
    maxScore: 10,
    severity: "critical",
    title: id,
    description: "",
    fix: "",
  });

  it("averages each page check over the pages and scores the site by the catalogue's rules", () => {
    const report = buildSiteReport({
      mode: "full",
      pages: [
        { url: `${O}/a`, overall: 90, checks: [check("indexable", "pass"), check("article-schema", "pass", "aeo")] },
        { url: `${O}/b`, overall: 40, checks: [check("indexable", "fail"), check("article-schema", "skip", "aeo")] },
      ],
      siteChecks: [],
      discovery: null,
    });
    expect(report.page_checks.find((c) => c.id === "indexable")).toMatchObject({
      pages: 2,
      pass: 1,
      fail: 1,
      pass_rate: 0.5,
    });
    expect(report.page_checks.find((c) => c.id === "article-schema")).toMatchObject({
      pages: 1,
      skip: 1,
      pass_rate: 1,
    });
    // seo: indexable earns 5 of 10 on average; aeo: 10 of 10; geo: nothing ran
    expect(report.scores).toEqual({ seo: 50, aeo: 100, geo: 100, overall: 80, total: 80 });
    expect(report.worst_pages.map((p) => p.url)).toEqual([`${O}/b`, `${O}/a`]);
    expect(report.partial).toBe(false);
  });

  it("lists each page check with its evidence grade, and a convention-only site check moves no score", () => {
    const report = (llmsLinks: "pass" | "fail") =>
      buildSiteReport({
        mode: "full",
        pages: [{ url: `${O}/a`, overall: 90, checks: [check("indexable", "pass"), check("author", "fail", "geo")] }],
        siteChecks: [
          {
            ...check("llms-txt-links", llmsLinks, "geo"),
            evidence: CHECK_EVIDENCE["llms-txt-links"],
            findings: [],
            findings_total: 0,
          },
        ],
        discovery: null,
      });
    expect(report("fail").scores).toEqual(report("pass").scores);
    expect(report("pass").scores.geo).toBe(0);
    expect(report("pass").page_checks.find((c) => c.id === "author")?.evidence?.grade).toBe("documented");
  });

  it("caps the overall at 39 when no page may be indexed", () => {
    const report = buildSiteReport({
      mode: "quick",
      pages: [
        { url: `${O}/a`, overall: 39, checks: [check("indexable", "fail"), check("article-schema", "pass", "aeo")] },
      ],
      siteChecks: [],
      discovery: null,
    });
    expect(report.scores.overall).toBe(39);
    expect(report.grade).toBe("F");
  });

  describe("ai-catalog.json", () => {
    const catalog = {
      specVersion: "1.0",
      entries: [
        {
          identifier: "urn:air:site.example:shop:assistant",
          displayName: "Shop assistant",
          type: "application/mcp-server-card+json",
          url: `${O}/mcp.json`,
          representativeQueries: ["find a product", "track my order"],
        },
      ],
    };
    const discovery = (
      named: { html?: string; header?: string },
      status: number,
      body: string | null,
      contentType = "application/json",
    ): AiCatalogDiscovery => {
      const signals = aiCatalogSignals({
        pageUrl: `${O}/`,
        html: named.html ?? "<title>Shop</title>",
        linkHeader: named.header ?? null,
        robotsTxt: null,
      });
      const url = signals.htmlLink ?? signals.httpHeaderLink ?? signals.wellKnown;
      return { signals, catalog: { url, status, contentType, body, error: null } };
    };
    const statusOf = (aiCatalog: AiCatalogDiscovery) =>
      Object.fromEntries(
        runSiteChecks(input([page("/")], { aiCatalog }))
          .filter((check) => check.id.startsWith("ai-catalog"))
          .map((check) => [check.id, check.status]),
      );

    it("pass a valid catalog named by a link element, a Link header or found at the well-known path", () => {
      const body = JSON.stringify(catalog);
      const pass = { "ai-catalog": "pass", "ai-catalog-schema": "pass" };
      expect(statusOf(discovery({ html: '<link rel="ai-catalog" href="/agents.json">' }, 200, body))).toEqual(pass);
      expect(statusOf(discovery({ header: '</agents.json>; rel="ai-catalog"' }, 200, body))).toEqual(pass);
      expect(statusOf(discovery({}, 200, body))).toEqual(pass);
    });

    it("fail a named catalog that does not answer, and skip the schema then", () => {
      expect(statusOf(discovery({ html: '<link rel="ai-catalog" href="/agents.json">' }, 404, "not found"))).toEqual({
        "ai-catalog": "fail",
        "ai-catalog-schema": "skip",
      });
    });

    it("skip both when there is none, or only an HTML page at the well-known path", () => {
      const skip = { "ai-catalog": "skip", "ai-catalog-schema": "skip" };
      expect(statusOf(discovery({}, 404, "not found"))).toEqual(skip);
      expect(statusOf(discovery({}, 200, "<!doctype html><title>Home</title>", "text/html"))).toEqual(skip);
    });

    it("fail the schema with one finding per error", () => {
      const invalid = { ...catalog, entries: [{ ...catalog.entries[0], identifier: "assistant", data: {} }] };
      const [, schema] = runSiteChecks(
        input([page("/")], { aiCatalog: discovery({}, 200, JSON.stringify(invalid)) }),
      ).filter((check) => check.id.startsWith("ai-catalog"));
      expect(schema?.status).toBe("fail");
      expect(schema?.findings.map((finding) => finding.detail)).toEqual([
        expect.stringContaining("JSON schema"),
        expect.stringContaining("is not a URN"),
        expect.stringContaining("both 'url' and 'data'"),
      ]);
      expect(statusOf(discovery({}, 200, "{ not json"))).toEqual({ "ai-catalog": "pass", "ai-catalog-schema": "fail" });
    });
  });
});
