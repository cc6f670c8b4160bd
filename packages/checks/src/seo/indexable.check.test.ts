import { judge, siteFile } from "../fixture";
import { indexable } from "./indexable.check";

const head = (content: string) => `<html><head><title>t</title>${content}</head><body></body></html>`;
const robotsTxt = (body: string, status = 200) => siteFile("/robots.txt", body, status);

describe("indexable", () => {
  it("passes without directives and with an allowing robots.txt", () => {
    const verdict = judge(indexable, head('<meta name="robots" content="index, follow">'), {
      robotsTxt: robotsTxt("User-agent: *\nDisallow: /admin/"),
    });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("robots.txt allows Googlebot");
  });

  it("fails with meta robots noindex", () => {
    const verdict = judge(indexable, head('<meta name="robots" content="noindex, follow">'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('<meta name="robots"> says "noindex"');
  });

  it("fails with googlebot none", () => {
    expect(judge(indexable, head('<meta name="googlebot" content="none">')).status).toBe("fail");
  });

  it("passes when only another crawler is told noindex", () => {
    expect(judge(indexable, head('<meta name="bingbot" content="noindex">')).status).toBe("pass");
  });

  it("fails with an X-Robots-Tag noindex for all or for Googlebot, not for another bot", () => {
    const html = head("");
    expect(judge(indexable, html, { headers: { "x-robots-tag": "noindex" } }).description).toContain(
      "X-Robots-Tag header",
    );
    expect(judge(indexable, html, { headers: { "x-robots-tag": "googlebot: noindex" } }).status).toBe("fail");
    expect(judge(indexable, html, { headers: { "x-robots-tag": "otherbot: noindex" } }).status).toBe("pass");
  });

  it("fails with an unavailable_after date in the past, not in the future", () => {
    const past = head('<meta name="robots" content="unavailable_after: 2025-01-01">');
    const future = head('<meta name="robots" content="unavailable_after: 2030-01-01">');
    expect(judge(indexable, past).status).toBe("fail");
    expect(judge(indexable, future).status).toBe("pass");
  });

  it("fails when robots.txt disallows the path for Googlebot", () => {
    const verdict = judge(indexable, head(""), { robotsTxt: robotsTxt("User-agent: Googlebot\nDisallow: /page") });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("robots.txt disallows /page for Googlebot");
  });

  it("follows Googlebot's own group over *", () => {
    const verdict = judge(indexable, head(""), {
      robotsTxt: robotsTxt("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /"),
    });
    expect(verdict.status).toBe("pass");
  });

  it("fails when the served HTML says noindex even if scripts removed it", () => {
    const raw = head('<meta name="robots" content="noindex">');
    const verdict = judge(indexable, raw, { renderedHtml: head("") });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("served HTML");
  });

  it("does not treat a failing robots.txt as a block", () => {
    const verdict = judge(indexable, head(""), { robotsTxt: robotsTxt("", 503) });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("could not be read");
  });
});
