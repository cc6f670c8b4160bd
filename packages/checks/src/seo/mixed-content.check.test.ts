import { judge } from "../fixture";
import { mixedContent } from "./mixed-content.check";

const body = (content: string) => `<html><head></head><body>${content}</body></html>`;

describe("mixed-content", () => {
  it("passes when everything loads over https", () => {
    const verdict = judge(mixedContent, body('<img src="/a.png"><script src="https://cdn.example/x.js"></script>'), {
      subresources: [{ url: "https://cdn.example/x.js", resourceType: "script", blocked: false }],
    });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("https page");
  });

  it("fails on http requests of the render", () => {
    const verdict = judge(mixedContent, body(""), {
      subresources: [{ url: "http://cdn.example/x.js", resourceType: "script", blocked: false }],
    });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("http://cdn.example/x.js");
  });

  it("fails on http resources in the DOM, not on http links or noscript content", () => {
    const html = body(
      '<a href="http://other.example/">link</a><noscript><img src="http://x.example/n.png"></noscript><link rel="stylesheet" href="http://x.example/s.css">',
    );
    const verdict = judge(mixedContent, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("1 subresource load");
  });

  it("skips on an http page", () => {
    const verdict = judge(mixedContent, body('<img src="http://x.example/a.png">'), {
      finalUrl: "http://example.com/page",
    });
    expect(verdict.status).toBe("skip");
  });
});
