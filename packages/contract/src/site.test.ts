import { SiteListQuery, siteOriginOf } from "./site";

describe("siteOriginOf", () => {
  it.each([
    ["https://Example.com/blog/post?x=1", "https://example.com", "example.com"],
    ["https://example.com:443/", "https://example.com", "example.com"],
    ["http://example.com:8080/a", "http://example.com:8080", "example.com"],
    ["https://www.example.com/", "https://www.example.com", "www.example.com"],
    ["https://bücher.de/", "https://xn--bcher-kva.de", "xn--bcher-kva.de"],
    ["http://127.0.0.1:4000/page", "http://127.0.0.1:4000", "127.0.0.1"],
  ])("%s is the site %s on %s", (url, origin, domain) => {
    expect(siteOriginOf(url)).toEqual({ url: origin, domain });
  });
});

describe("SiteListQuery", () => {
  it("keeps q as written, trimmed; blank is no filter", () => {
    expect(SiteListQuery.parse({ q: " 50%_off " })).toEqual({ page: 1, limit: 20, q: "50%_off" });
    expect(SiteListQuery.parse({ q: "   " })).toEqual({ page: 1, limit: 20 });
  });

  it("refuses a q longer than 200 characters, a repeated q, and unknown parameters", () => {
    expect(SiteListQuery.safeParse({ q: "x".repeat(201) }).success).toBe(false);
    expect(SiteListQuery.safeParse({ q: ["a", "b"] }).success).toBe(false);
    expect(SiteListQuery.safeParse({ search: "a" }).success).toBe(false);
    expect(SiteListQuery.safeParse({ q: "a\u0000" }).success).toBe(false);
  });
});
