import type { TextResource } from "@scan/contract";
import { judge } from "../fixture";
import { robotsTxt, validateRobotsTxt } from "./robots-txt.check";

const robots = (body: string | null, status = 200, extra: Partial<TextResource> = {}): TextResource => ({
  url: "https://example.com/robots.txt",
  status,
  contentType: "text/plain",
  body,
  truncated: false,
  error: null,
  ...extra,
});

describe("robots-txt", () => {
  it("passes when every line parses", () => {
    const body =
      "# rules\nUser-agent: *\nDisallow: /admin/\nAllow: /*.css$\nCrawl-delay: 5\n\nSitemap: https://example.com/sitemap.xml\n";
    const verdict = judge(robotsTxt, "", { robotsTxt: robots(body) });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("all 5 directives parse");
  });

  it("fails on unparseable lines", () => {
    const verdict = judge(robotsTxt, "", { robotsTxt: robots("Disallow: /x\nUser-agent: *\nDisalow: /y\nnonsense") });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("3 lines");
    expect(verdict.description).toContain("a rule before any User-agent line");
  });

  it("validates patterns and sitemap URLs", () => {
    const errors = validateRobotsTxt("User-agent: *\nDisallow: admin\nAllow: /a$b\nSitemap: /sitemap.xml\nUser-agent:");
    expect(errors.map((error) => error.line)).toEqual([2, 3, 4, 5]);
  });

  it("fails on 5xx, 429 and a failed fetch", () => {
    expect(judge(robotsTxt, "", { robotsTxt: robots("", 503) }).description).toContain("HTTP 503");
    expect(judge(robotsTxt, "", { robotsTxt: robots("", 429) }).status).toBe("fail");
    const failed = judge(robotsTxt, "", { robotsTxt: robots(null, 0, { error: "connection refused" }) });
    expect(failed.status).toBe("fail");
    expect(failed.description).toContain("connection refused");
  });

  it("skips on 4xx, an empty file, or when not fetched", () => {
    expect(judge(robotsTxt, "", { robotsTxt: robots("not found", 404) }).description).toContain("no robots.txt");
    expect(judge(robotsTxt, "", { robotsTxt: robots("") }).status).toBe("skip");
    expect(judge(robotsTxt, "", { robotsTxt: null }).status).toBe("skip");
  });

  it("ignores the unfinished last line of a truncated file", () => {
    const verdict = judge(robotsTxt, "", {
      robotsTxt: robots("User-agent: *\nDisallow: /a\nDisa", 200, { truncated: true }),
    });
    expect(verdict.status).toBe("pass");
  });
});
