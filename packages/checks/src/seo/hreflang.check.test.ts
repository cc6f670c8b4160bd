import { judge } from "../fixture";
import { hreflang } from "./hreflang.check";

const head = (links: string) => `<html><head>${links}</head><body></body></html>`;
const alt = (code: string, href: string) => `<link rel="alternate" hreflang="${code}" href="${href}">`;

describe("hreflang", () => {
  it("passes with valid codes, x-default and absolute hrefs", () => {
    const verdict = judge(
      hreflang,
      head(
        alt("en", "https://example.com/") +
          alt("de-AT", "https://example.com/at/") +
          alt("x-default", "https://example.com/"),
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("3 hreflang annotations");
  });

  it("reads Link headers", () => {
    const verdict = judge(hreflang, head(""), {
      headers: { link: '<https://example.com/fr>; rel="alternate"; hreflang="fr"' },
    });
    expect(verdict.status).toBe("pass");
  });

  it("fails on an invalid code", () => {
    const verdict = judge(hreflang, head(alt("en-UK", "https://example.com/uk")));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('"en-UK" is not a valid language code');
  });

  it("fails on a relative href", () => {
    const verdict = judge(hreflang, head(alt("fr", "/fr/")));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("not an absolute http(s) URL");
  });

  it("skips without hreflang links, and ignores those in the body", () => {
    const html = `<html><head></head><body>${alt("xx-yy", "/x")}</body></html>`;
    expect(judge(hreflang, html).status).toBe("skip");
  });
});
