import { domainOf, hostIsOnDomain, normaliseUrl, siteHost } from "./url";

describe("normaliseUrl", () => {
  it("lower-cases scheme and host, keeps the path's case", () => {
    expect(normaliseUrl("HTTPS://Example.COM/Docs/Guide")).toBe("https://example.com/Docs/Guide");
  });

  it("drops the fragment, the default port and the trailing slash, the root included", () => {
    expect(normaliseUrl("https://example.com:443/pricing/#plans")).toBe("https://example.com/pricing");
    expect(normaliseUrl("https://example.com/")).toBe("https://example.com");
    expect(normaliseUrl("https://example.com")).toBe("https://example.com");
    expect(normaliseUrl("http://example.com:8080/a//")).toBe("http://example.com:8080/a");
  });

  it("drops tracking parameters (utm_*, click ids) and sorts the rest", () => {
    expect(normaliseUrl("https://example.com/blog/post?utm_source=chatgpt.com")).toBe("https://example.com/blog/post");
    expect(normaliseUrl("https://example.com/p?b=2&UTM_Medium=x&gclid=1&a=1&fbclid=z&srsltid=q")).toBe(
      "https://example.com/p?a=1&b=2",
    );
    expect(normaliseUrl("https://example.com/search?q=a+b&page=2")).toBe("https://example.com/search?page=2&q=a+b");
  });

  it("keeps www. as written (it is another host) and turns an international host into ASCII", () => {
    expect(normaliseUrl("https://www.example.com/a/")).toBe("https://www.example.com/a");
    expect(normaliseUrl("https://Bücher.example/ä")).toBe("https://xn--bcher-kva.example/%C3%A4");
  });

  it("returns what is no http(s) URL trimmed, unchanged", () => {
    expect(normaliseUrl("  not a url ")).toBe("not a url");
    expect(normaliseUrl("mailto:a@example.com")).toBe("mailto:a@example.com");
  });

  it("gives one spelling for the ways one page is cited", () => {
    const spellings = [
      "https://Example.com/guide/",
      "https://example.com/guide#intro",
      "https://example.com/guide?utm_source=openai",
      "https://example.com:443/guide",
    ];
    expect(new Set(spellings.map(normaliseUrl))).toEqual(new Set(["https://example.com/guide"]));
  });
});

describe("domain matching", () => {
  it("reads a domain setting written as a host, a www. host or a URL", () => {
    expect(domainOf("Example.com")).toBe("example.com");
    expect(domainOf("www.example.com")).toBe("example.com");
    expect(domainOf("https://www.example.com/blog")).toBe("example.com");
    expect(domainOf("bücher.example")).toBe("xn--bcher-kva.example");
    expect(siteHost("WWW.Example.com.")).toBe("example.com");
  });

  it("matches the domain, www. and subdomains, and not look-alikes", () => {
    expect(hostIsOnDomain("example.com", "example.com")).toBe(true);
    expect(hostIsOnDomain("www.example.com", "example.com")).toBe(true);
    expect(hostIsOnDomain("example.com", "www.example.com")).toBe(true);
    expect(hostIsOnDomain("docs.eu.example.com", "example.com")).toBe(true);
    expect(hostIsOnDomain("notexample.com", "example.com")).toBe(false);
    expect(hostIsOnDomain("example.com.evil.net", "example.com")).toBe(false);
    expect(hostIsOnDomain("example.com", "docs.example.com")).toBe(false);
    expect(hostIsOnDomain("example.com", "")).toBe(false);
  });
});
