import { judge, siteFile } from "../fixture";
import { llmsTxt, llmsTxtFormat } from "./llms-txt.check";

const file = (body: string, status = 200, contentType = "text/plain") => ({
  llmsTxt: siteFile("/llms.txt", body, status, contentType),
});
const PAGE = "<html><body></body></html>";
const GOOD =
  "# Example\n\n> Example sells widgets to teams.\n\n## Docs\n\n- [Guide](https://example.com/guide): how to start\n";

describe("llms-txt", () => {
  it("passes on a 200 text file", () => {
    expect(judge(llmsTxt, PAGE, file(GOOD)).status).toBe("pass");
  });

  it("warns when missing, saying no vendor documents reading it", () => {
    const verdict = judge(llmsTxt, PAGE, file("not found", 404));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/404.*no AI vendor/);
  });

  it("treats an HTML page served at /llms.txt as missing", () => {
    const verdict = judge(llmsTxt, PAGE, file("<!doctype html><p>home</p>", 200, "text/html"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/HTML page/);
  });

  it("fails on a 5xx", () => {
    expect(judge(llmsTxt, PAGE, file("error", 500)).status).toBe("fail");
  });
});

describe("llms-txt-format", () => {
  it("passes with an H1, a summary and sections of links", () => {
    expect(judge(llmsTxtFormat, PAGE, file(GOOD)).status).toBe("pass");
  });

  it("warns when only Lighthouse's minimum holds: an H1, a link and 50+ characters", () => {
    const verdict = judge(
      llmsTxtFormat,
      PAGE,
      file("# Example\n\nSee [the guide](https://example.com/guide) for everything.\n"),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/a > summary, ## sections/);
  });

  it("fails on plain text", () => {
    expect(judge(llmsTxtFormat, PAGE, file("just some words")).status).toBe("fail");
  });

  it("skips without llms.txt", () => {
    expect(judge(llmsTxtFormat, PAGE, file("", 404)).status).toBe("skip");
  });
});
