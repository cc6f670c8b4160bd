import { judge, siteFile } from "../fixture";
import { aiSearchAccess } from "./ai-search-access.check";

const robots = (body: string, status = 200) => ({ robotsTxt: siteFile("/robots.txt", body, status) });
const PAGE = "<html><body><p>hi</p></body></html>";

describe("ai-search-access", () => {
  it("passes when robots.txt allows the search agents, and reports blocked training crawlers without scoring them", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/all six AI search and user agents/);
    expect(verdict.description).toMatch(/Training crawlers blocked: GPTBot; allowed: ClaudeBot, .*not scored/);
  });

  it("passes when robots.txt answers 4xx, saying RFC 9309 allows everything then", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("", 404));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/answers 404; under RFC 9309 .* allows every crawler/);
  });

  it("warns when some AI search agents are blocked", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: PerplexityBot\nDisallow: /\n"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/PerplexityBot is blocked/);
    expect(verdict.fix).toMatch(/User-agent: PerplexityBot/);
  });

  it("matches product tokens exactly: a ClaudeBot group does not govern Claude-SearchBot", () => {
    expect(judge(aiSearchAccess, PAGE, robots("User-agent: ClaudeBot\nDisallow: /\n")).status).toBe("pass");
  });

  it("fails when every AI search agent is blocked, by path under RFC 9309 matching", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: *\nDisallow: /page\n"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/every AI search and user agent is blocked/);
    expect(judge(aiSearchAccess, PAGE, robots("User-agent: *\nDisallow: /other\n")).status).toBe("pass");
    expect(judge(aiSearchAccess, PAGE, robots("User-agent: *\nDisallow: /\nAllow: /page\n")).status).toBe("pass");
  });

  it("fails when robots.txt answers 5xx or cannot be fetched: crawlers must assume complete disallow", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("oops", 503));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/answers 503; under RFC 9309 an unreachable robots\.txt/);
    expect(verdict.fix).toMatch(/answer 200/);
    expect(judge(aiSearchAccess, PAGE, robots("", 0)).description).toMatch(/could not be fetched/);
  });
});
