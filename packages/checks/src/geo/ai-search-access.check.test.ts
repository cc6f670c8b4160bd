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
    expect(verdict.description).toMatch(
      /answered 404; under RFC 9309 an unavailable robots\.txt .* allows every crawler/,
    );
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
    expect(verdict.description).toMatch(/answered 503; under RFC 9309 an unreachable robots\.txt/);
    expect(verdict.fix).toMatch(/answer 200/);
    expect(judge(aiSearchAccess, PAGE, robots("", 0)).description).toMatch(/could not be fetched/);
  });

  it("treats a robots.txt still redirecting after five redirects as unavailable, and says so", () => {
    const redirected = { ...siteFile("/robots.txt", "", 301), tooManyRedirects: true };
    const verdict = judge(aiSearchAccess, PAGE, { robotsTxt: redirected });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/robots\.txt redirected more than five times; under RFC 9309 an unavailable/);
  });

  it("reads robots.txt as Google does: lines it ignores do not split a group", () => {
    const body = "User-agent: OAI-SearchBot\nCrawl-delay: 10\nUser-agent: *\nDisallow: /page\n";
    expect(judge(aiSearchAccess, PAGE, robots(body)).status).toBe("fail");
  });

  it("reads a product token up to the first character that cannot be in one", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: OAI-SearchBot, PerplexityBot\nDisallow: /\n"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/^robots\.txt \(status 200\): OAI-SearchBot is blocked/);
  });

  it("gives an agent named on a last line with no rules a group of its own, which allows everything", () => {
    const body = "User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\n";
    const verdict = judge(aiSearchAccess, PAGE, robots(body));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(
      /ChatGPT-User, Claude-SearchBot, Claude-User, PerplexityBot, Perplexity-User are blocked/,
    );
  });

  it("reports the other AI search agents and the training crawlers without scoring them", () => {
    const verdict = judge(aiSearchAccess, PAGE, robots("User-agent: Googlebot\nUser-agent: CCBot\nDisallow: /\n"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/Training crawlers blocked: CCBot; allowed: GPTBot/);
    expect(verdict.description).toMatch(/Other AI search agents blocked: Googlebot; allowed: Applebot/);
  });
});
