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

  it("skips a robots.txt still redirecting after five redirects, as RFC 9309 reads an unavailable file", () => {
    const verdict = judge(robotsTxt, "", { robotsTxt: robots(null, 301, { tooManyRedirects: true }) });
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toBe("robots.txt redirected more than five times; crawlers may fetch everything.");
  });

  it("says why a robots.txt that did not answer makes crawlers stay away", () => {
    const verdict = judge(robotsTxt, "", {
      robotsTxt: robots(null, 0, { error: "https://example.com did not answer in time" }),
    });
    expect(verdict.description).toBe(
      "robots.txt could not be fetched (https://example.com did not answer in time); crawlers treat the whole site as disallowed while it does.",
    );
  });

  it.each([
    [
      "User-agent: OAI-SearchBot, PerplexityBot\nDisallow: /\n",
      'line 1 "User-agent: OAI-SearchBot, PerplexityBot": Google: a group for OAI-SearchBot only (the name is read up to ","); strict RFC 9309: "OAI-SearchBot, PerplexityBot" is not a product token',
    ],
    [
      "User-agent: *\nDisallow: *.gif\n",
      'line 2 "Disallow: *.gif": Google: the pattern "*.gif", which also ends the run of User-agent lines above it; strict RFC 9309: not a path (it does not start with "/"), so the line is skipped',
    ],
    [
      "User-agent: *\nAllow: /docs/index.html\nDisallow: /docs/\n",
      'line 2 "Allow: /docs/index.html": Google: allows /docs/index.html and the directory URL /docs/ itself; strict RFC 9309: allows /docs/index.html only',
    ],
    [
      "User-agent: *\nDisallow: /%7Euser/\n",
      'line 2 "Disallow: /%7Euser/": Google: matches %7E only where the URL has it escaped; strict RFC 9309: %7E decoded to its character before comparing',
    ],
    [
      "User-agent: *\nDisallow: /café/\n",
      'line 2 "Disallow: /café/": Google: the path %-encoded as UTF-8 (/caf%C3%A9/)',
    ],
  ])("warns when every line parses but one reads differently to other crawlers: %j", (body, named) => {
    const verdict = judge(robotsTxt, "", { robotsTxt: robots(body) });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("1 line reads differently to other crawlers than to Google");
    expect(verdict.description).toContain(named);
    expect(verdict.fix).toMatch(/one product token per User-agent line/);
  });

  it("fails on lines Lighthouse rejects and says which of them Google obeys all the same", () => {
    const verdict = judge(robotsTxt, "", { robotsTxt: robots("User-agent: *\nDisalow: /x\nDisallow /y\n") });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain(
      'Google obeys 2 of them all the same: line 2 as "Disallow: /x"; line 3 as "Disallow: /y".',
    );
  });

  it("says a rule before the first User-agent line applies to no crawler", () => {
    const verdict = judge(robotsTxt, "", { robotsTxt: robots("Disallow: /x\nUser-agent: *\nDisallow: /y\n") });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('line 1 "Disallow: /x": a rule before any User-agent line');
  });

  it("names at most three lines, and counts them all", () => {
    const body = "User-agent: A, B\nUser-agent: C/1\nUser-agent: D E\nUser-agent: F;G\nDisallow: /\n";
    const verdict = judge(robotsTxt, "", { robotsTxt: robots(body) });
    expect(verdict.description).toContain("but 4 lines read differently");
    expect(verdict.description).toMatch(
      /; line 3 "User-agent: D E": Google: a group for D only [^;]*; strict RFC 9309: [^;]*; \.\.\.\.$/,
    );
  });
});
