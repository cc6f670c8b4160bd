import type { BotFetch } from "@scan/contract";
import { judge } from "../fixture";
import { botAccessParity } from "./bot-access-parity.check";

const PAGE = `<html><body><main><h1>Widgets for teams</h1><p>${"Our widgets help teams ship faster with fewer meetings and clearer plans. ".repeat(5)}</p></main></body></html>`;
const bot = (name: string, status: number, body: string | null, error: string | null = null): BotFetch => ({
  bot: name,
  userAgent: `${name}/1.0`,
  status,
  body,
  error,
});

describe("bot-access-parity", () => {
  it("passes when every AI crawler gets the same page, comparing words rather than bytes", () => {
    const reshuffled = PAGE.replace("<main>", '<main data-nonce="81f2"><script>var t = 17;</script>');
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 200, PAGE), bot("ClaudeBot", 200, reshuffled), bot("PerplexityBot", 200, PAGE)],
    });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/GPTBot: the same HTML; ClaudeBot: 100 % of the text/);
  });

  it("warns when one crawler is challenged", () => {
    const challenge = "<html><body><p>Checking your browser before accessing.</p></body></html>";
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 200, PAGE), bot("ClaudeBot", 200, challenge), bot("PerplexityBot", 200, PAGE)],
    });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/ClaudeBot gets a different answer .*ClaudeBot: \d+ % of the text/);
  });

  it("holds a crawler's copy against the words with repetition: one paragraph of five is not the page", () => {
    const short = `<html><body><main><h1>Widgets for teams</h1><p>Our widgets help teams ship faster with fewer meetings and clearer plans.</p></main></body></html>`;
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 200, short), bot("ClaudeBot", 200, PAGE), bot("PerplexityBot", 200, PAGE)],
    });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/GPTBot: 2\d % of the text/);
  });

  it("fails when all are blocked", () => {
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 403, "no"), bot("ClaudeBot", 403, "no"), bot("PerplexityBot", 0, null, "timeout")],
    });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/GPTBot: status 403.*PerplexityBot: no answer \(timeout\)/);
  });

  it("skips when the page was not fetched as crawlers, or does not answer 2xx itself", () => {
    expect(judge(botAccessParity, PAGE).description).toMatch(/quick scan/);
    const notFound = judge(botAccessParity, PAGE, { status: 404, botFetches: [bot("GPTBot", 404, PAGE)] });
    expect(notFound.status).toBe("skip");
    expect(notFound.description).toMatch(/answers 404/);
  });
});
