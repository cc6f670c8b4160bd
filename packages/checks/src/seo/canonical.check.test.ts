import { judge } from "../fixture";
import { canonical } from "./canonical.check";

const head = (content: string) => `<html><head><title>t</title>${content}</head><body></body></html>`;
const link = (href: string) => `<link rel="canonical" href="${href}">`;

describe("canonical", () => {
  it("passes with one absolute canonical", () => {
    const verdict = judge(canonical, head(link("https://example.com/page")));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("https://example.com/page (this page itself)");
  });

  it("passes with a duplicate of the same URL and with a cross-domain canonical", () => {
    expect(judge(canonical, head(link("https://example.com/page") + link("https://example.com/page"))).status).toBe(
      "pass",
    );
    expect(judge(canonical, head(link("https://other.example/original"))).status).toBe("pass");
  });

  it("reads a canonical Link header", () => {
    const verdict = judge(canonical, head(""), {
      headers: { link: '<https://example.com/page>; rel="canonical"' },
    });
    expect(verdict.status).toBe("pass");
  });

  it("warns without a canonical", () => {
    const verdict = judge(canonical, head(""));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/no canonical/);
  });

  it("ignores a canonical in the body", () => {
    const html = `<html><head><title>t</title></head><body>${link("/elsewhere")}</body></html>`;
    expect(judge(canonical, html).status).toBe("warn");
  });

  it("fails with a relative canonical", () => {
    const verdict = judge(canonical, head(link("/page")));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("relative");
  });

  it("fails with an invalid canonical", () => {
    const verdict = judge(canonical, head(link("http://exa mple.com:99999/")));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("not a valid");
  });

  it("fails with conflicting canonicals", () => {
    const verdict = judge(canonical, head(link("https://example.com/a") + link("https://example.com/b")));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("2 different canonical URLs");
  });

  it("fails when an inner page points at the site root", () => {
    const verdict = judge(canonical, head(link("https://example.com/")));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("homepage");
  });

  it("fails when the canonical points at another hreflang version", () => {
    const html = head(
      link("https://example.com/de") +
        '<link rel="alternate" hreflang="en" href="https://example.com/page">' +
        '<link rel="alternate" hreflang="de" href="https://example.com/de">',
    );
    const verdict = judge(canonical, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("another language version");
  });
});
