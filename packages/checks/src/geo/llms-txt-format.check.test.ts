import { judge, siteFile } from "../fixture";
import { llmsTxtFormat } from "./llms-txt-format.check";

const file = (body: string, status = 200, contentType = "text/plain") => ({
  llmsTxt: siteFile("/llms.txt", body, status, contentType),
});
const PAGE = "<html><body></body></html>";
const GOOD =
  "# Example\n\n> Example sells widgets to teams.\n\n## Docs\n\n- [Guide](https://example.com/guide): how to start\n- [API](https://example.com/api)\n\n## Optional\n\n- [Blog](https://example.com/blog)\n";

describe("llms-txt-format", () => {
  it("passes with an H1, a summary and sections of links", () => {
    const verdict = judge(llmsTxtFormat, PAGE, file(GOOD));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2 sections of markdown links \(3 links\)/);
  });

  it("warns when only Lighthouse's minimum holds: an H1, a link and 50+ characters", () => {
    const verdict = judge(
      llmsTxtFormat,
      PAGE,
      file("# Example\n\nSee [the guide](https://example.com/guide) for everything.\n"),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/Lighthouse's minimum.*a > summary before the sections, ## sections/);
  });

  it("does not read headings inside code fences", () => {
    const body =
      "Intro text that is long enough to pass fifty characters.\n```\n# not a title\n```\n[a](https://x.y)\n";
    const verdict = judge(llmsTxtFormat, PAGE, file(body));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/an H1 title/);
  });

  it("reads an H1 indented by up to three spaces, as CommonMark and Lighthouse do", () => {
    expect(judge(llmsTxtFormat, PAGE, file(`   ${GOOD}`)).status).toBe("pass");
  });

  it("fails a file under Lighthouse's 50 characters even with the format's parts", () => {
    const verdict = judge(llmsTxtFormat, PAGE, file("# A\n> b\n## c\n- [d](https://e.f)\n"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/holds only 32 characters/);
  });

  it("fails on plain text", () => {
    const verdict = judge(llmsTxtFormat, PAGE, file("just some words"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no markdown link and holds only 15 characters/);
  });

  it("skips without llms.txt, saying why", () => {
    const verdict = judge(llmsTxtFormat, PAGE, file("", 404));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/answers 404/);
  });
});
