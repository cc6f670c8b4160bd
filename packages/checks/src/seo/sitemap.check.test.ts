import type { TextResource } from "@scan/contract";
import { judge } from "../fixture";
import { sitemap } from "./sitemap.check";

const resource = (body: string | null, status = 200, extra: Partial<TextResource> = {}): TextResource => ({
  url: "https://example.com/sitemap.xml",
  status,
  contentType: "application/xml",
  body,
  truncated: false,
  error: null,
  ...extra,
});

const URLSET =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url><url><loc>https://example.com/a</loc></url></urlset>';

describe("sitemap", () => {
  it("passes with a valid urlset", () => {
    const verdict = judge(sitemap, "", { sitemap: resource(URLSET) });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("<urlset> sitemap with 2 URLs");
  });

  it("passes with a sitemap index and with a plain-text sitemap", () => {
    const index =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml</loc></sitemap></sitemapindex>';
    expect(judge(sitemap, "", { sitemap: resource(index) }).description).toContain("1 child sitemaps");
    const text = judge(sitemap, "", { sitemap: resource("https://example.com/\nhttps://example.com/a\n") });
    expect(text.status).toBe("pass");
    expect(text.description).toContain("plain-text sitemap with 2 URLs");
  });

  it("warns when no sitemap is found", () => {
    const verdict = judge(sitemap, "", { sitemap: resource("not found", 404) });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("HTTP 404");
    expect(judge(sitemap, "", { sitemap: resource("<!doctype html><html><body>Home</body></html>") }).status).toBe(
      "warn",
    );
  });

  it("fails on malformed XML or a wrong root", () => {
    const broken = judge(sitemap, "", { sitemap: resource("<urlset><url><loc>https://example.com/</url></urlset>") });
    expect(broken.status).toBe("fail");
    expect(broken.description).toContain("not well-formed");
    expect(judge(sitemap, "", { sitemap: resource("<rss><channel></channel></rss>") }).description).toContain("<rss>");
  });

  it("fails on a file that is not a sitemap", () => {
    expect(judge(sitemap, "", { sitemap: resource("hello world") }).status).toBe("fail");
  });

  it("skips when no sitemap was fetched", () => {
    expect(judge(sitemap, "", { sitemap: null }).status).toBe("skip");
  });

  it("checks the structure of a large sitemap instead of validating every tag", () => {
    const entry = "<url><loc>https://example.com/some/long/path</loc><lastmod>2026-01-01</lastmod></url>";
    const big = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entry.repeat(10_000)}</urlset>`;
    const verdict = judge(sitemap, "", { sitemap: resource(big) });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("10000 URLs");
    const unclosed = judge(sitemap, "", { sitemap: resource(`${big.slice(0, -"</urlset>".length)}<url><loc>x</loc>`) });
    expect(unclosed.status).toBe("fail");
    expect(unclosed.description).toContain("does not end by closing <urlset>");
  });
});
