import { judge } from "../fixture";
import { aiSnippetDirectives } from "./ai-snippet-directives.check";

const page = (meta: string) => `<html><head>${meta}</head><body><p>text</p></body></html>`;

describe("ai-snippet-directives", () => {
  it("passes without restricting directives", () => {
    expect(
      judge(aiSnippetDirectives, page('<meta name="robots" content="index, follow, max-snippet:-1">')).status,
    ).toBe("pass");
  });

  it("fails on nosnippet in meta robots", () => {
    const verdict = judge(aiSnippetDirectives, page('<meta name="robots" content="nosnippet">'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/<meta name="robots">: nosnippet/);
  });

  it("fails on max-snippet:0 for googlebot and on noai in X-Robots-Tag", () => {
    expect(judge(aiSnippetDirectives, page('<meta name="googlebot" content="max-snippet:0">')).status).toBe("fail");
    const verdict = judge(aiSnippetDirectives, page(""), { headers: { "x-robots-tag": "noai, noimageai" } });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/X-Robots-Tag: noai/);
  });

  it("does not read other meta tags as directives", () => {
    expect(judge(aiSnippetDirectives, page('<meta name="description" content="nosnippet tips">')).status).toBe("pass");
  });
});
