import { judge, siteFile } from "../fixture";
import { llmsTxt } from "./llms-txt.check";

const file = (body: string, status = 200, contentType = "text/plain") => ({
  llmsTxt: siteFile("/llms.txt", body, status, contentType),
});
const PAGE = "<html><body></body></html>";
const GOOD =
  "# Example\n\n> Example sells widgets to teams.\n\n## Docs\n\n- [Guide](https://example.com/guide): how to start\n";

describe("llms-txt", () => {
  it("passes on a 200 text file", () => {
    const verdict = judge(llmsTxt, PAGE, file(GOOD));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/answers 200 with \d+ characters/);
  });

  it("warns when missing, saying no vendor documents reading it", () => {
    const verdict = judge(llmsTxt, PAGE, file("not found", 404));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/answers 404.*no AI vendor/);
  });

  it("treats an HTML page served at /llms.txt as missing, by content type or by body", () => {
    const verdict = judge(llmsTxt, PAGE, file("<!doctype html><p>home</p>", 200, "text/html"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/HTML page.*so the site has none/);
    expect(judge(llmsTxt, PAGE, file("  <html><body>home</body></html>")).status).toBe("warn");
  });

  it("treats an empty 200 as missing", () => {
    expect(judge(llmsTxt, PAGE, file(" \n")).description).toMatch(/empty body/);
  });

  it("fails on a 5xx or a fetch that got no answer", () => {
    const verdict = judge(llmsTxt, PAGE, file("error", 500));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/answers 500/);
    const failed = judge(llmsTxt, PAGE, {
      llmsTxt: { ...siteFile("/llms.txt", "", 0), body: null, error: "timed out" },
    });
    expect(failed.status).toBe("fail");
    expect(failed.description).toMatch(/could not be fetched \(timed out\)/);
  });

  it("skips when the file was not fetched", () => {
    expect(judge(llmsTxt, PAGE).status).toBe("skip");
  });
});

describe("llms-txt: the file outlined from the page", () => {
  it("names the site, the summary and the key pages the page itself gives", () => {
    const html = `<html><head><title>Widgets for teams | Acme</title><meta name="description" content="Acme sells widgets to teams of every size."></head><body><nav><a href="/">Home</a><a href="/pricing">Pricing</a><a href="/docs">Docs</a><a href="/login">Log in</a></nav><main><h1>Widgets for teams</h1><p>Our widgets fit every team.</p></main></body></html>`;
    const verdict = judge(llmsTxt, html, file("not found", 404));
    expect(verdict.fix).toMatch(/'# Acme' \(the site's name, from the end of its <title>\)/);
    expect(verdict.fix).toMatch(/'> Acme sells widgets to teams of every size\.' \(the page's meta description\)/);
    expect(verdict.fix).toMatch(
      /'- \[Pricing\]\(https:\/\/example\.com\/pricing\)', '- \[Docs\]\(https:\/\/example\.com\/docs\)'/,
    );
    // the home page and a sign-in are no key pages
    expect(verdict.fix).not.toMatch(/\[Home\]|\[Log in\]/);
  });

  it("says what the owner must supply when the page gives no site name or navigation", () => {
    const verdict = judge(llmsTxt, PAGE, file("not found", 404));
    expect(verdict.fix).toMatch(
      /'# example\.com' \(the page names no site in its JSON-LD, og:site_name, application-name or <title>, so the host stands for it/,
    );
    expect(verdict.fix).toMatch(/so its owner must choose them/);
  });
});
