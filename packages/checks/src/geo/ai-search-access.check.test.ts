import { judge, siteFile } from "../fixture";
import { aiSearchAccess } from "./ai-search-access.check";

const robots = (body: string, status = 200) => ({ robotsTxt: siteFile("/robots.txt", body, status) });
const PAGE = "<html><body><p>hi</p></body></html>";

describe("ai-search-access", () => {
  it("passes when robots.txt allows everyone, and reports blocked training crawlers without scoring them", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/Training crawlers blocked: GPTBot/);
  });

  it("passes when robots.txt is missing (4xx allows all)", () => {
    expect(judge(aiSearchAccess, PAGE, robots("", 404)).description).toMatch(/404.*allows every crawler/);
  });

  it("warns when some AI search agents are blocked", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: PerplexityBot\nDisallow: /\n"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/PerplexityBot is blocked/);
  });

  it("fails when every AI search agent is blocked, by path under RFC 9309 matching", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: *\nDisallow: /page\n"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/every AI search and user agent/);
    expect(judge(aiSearchAccess, PAGE, robots("User-agent: *\nDisallow: /other\n")).status).toBe("pass");
  });

  it("fails when robots.txt answers 5xx: crawlers must assume complete disallow", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("oops", 503));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/answer 200/);
  });
});
