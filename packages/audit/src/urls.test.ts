import { crawlDelayFor } from "./crawler-robots";
import { parseSitemap } from "./sitemaps";
import { normaliseAuditUrl, refusalOf } from "./urls";

describe("normaliseAuditUrl", () => {
  it("drops the fragment, lower-cases the host and removes the default port", () => {
    expect(normaliseAuditUrl("HTTPS://Example.COM:443/a/b?x=1#top")).toBe("https://example.com/a/b?x=1");
    expect(normaliseAuditUrl("../c#x", "https://example.com/a/b")).toBe("https://example.com/c");
  });

  it("refuses what is not an http(s) URL without credentials", () => {
    expect(normaliseAuditUrl("mailto:a@example.com")).toBeNull();
    expect(normaliseAuditUrl("javascript:void(0)")).toBeNull();
    expect(normaliseAuditUrl("https://user:pw@example.com/")).toBeNull();
    expect(normaliseAuditUrl("http://[bad")).toBeNull();
  });
});

describe("refusalOf", () => {
  const rules = { origin: "https://example.com", include: ["/blog/*", "/docs$"], exclude: ["/blog/drafts/"] };

  it("admits same-origin pages that an include pattern matches", () => {
    expect(refusalOf("https://example.com/blog/post", rules)).toBeNull();
    expect(refusalOf("https://example.com/docs", rules)).toBeNull();
  });

  it("refuses other origins, files, excluded and not included paths", () => {
    expect(refusalOf("http://example.com/blog/post", rules)).toBe("another origin");
    expect(refusalOf("https://example.com/blog/report.pdf", rules)).toBe("not a page");
    expect(refusalOf("https://example.com/blog/drafts/one", rules)).toBe("excluded");
    expect(refusalOf("https://example.com/docs/more", rules)).toBe("not included");
    expect(refusalOf("https://example.com/shop", { ...rules, include: [] })).toBeNull();
  });
});

describe("crawlDelayFor", () => {
  it("reads the crawler's own group first, then *", () => {
    const robots = "User-agent: *\nCrawl-delay: 5\n\nUser-agent: Other\nUser-agent: AEOScan\nCrawl-delay: 1.5\n";
    expect(crawlDelayFor(robots, "AEOScan")).toBe(1.5);
    expect(crawlDelayFor(robots, "Nobody")).toBe(5);
    expect(crawlDelayFor("User-agent: *\nDisallow: /x\n", "AEOScan")).toBeNull();
  });

  it("caps a delay that would never let an audit end", () => {
    expect(crawlDelayFor("User-agent: *\nCrawl-delay: 3600\n", "AEOScan")).toBe(30);
  });
});

describe("parseSitemap", () => {
  it("reads a urlset's and an index's locations, namespaced or not", () => {
    const urlset = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc> https://example.com/a </loc></url><url><loc>https://example.com/b?x=1&amp;y=2</loc></url></urlset>`;
    expect(parseSitemap(urlset)).toEqual({
      kind: "urlset",
      locs: ["https://example.com/a", "https://example.com/b?x=1&y=2"],
    });
    const index = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://example.com/s.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>`;
    expect(parseSitemap(index)).toEqual({ kind: "sitemapindex", locs: ["https://example.com/s.xml.gz"] });
  });

  it("says why something is not a sitemap", () => {
    expect(parseSitemap("<html><body>hi</body></html>")).toEqual({
      kind: "invalid",
      error: "neither a <urlset> nor a <sitemapindex>",
    });
  });
});
