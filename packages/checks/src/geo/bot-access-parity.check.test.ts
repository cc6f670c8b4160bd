import type { BotFetch } from "@scan/shared/snapshot";
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
  it("passes when every AI crawler gets the same page", () => {
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 200, PAGE), bot("ClaudeBot", 200, PAGE), bot("PerplexityBot", 200, PAGE)],
    });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/GPTBot: 100 % of the text/);
  });

  it("warns when one crawler is challenged", () => {
    const challenge = "<html><body><p>Checking your browser before accessing.</p></body></html>";
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 200, PAGE), bot("ClaudeBot", 200, challenge), bot("PerplexityBot", 200, PAGE)],
    });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/ClaudeBot gets a different answer/);
  });

  it("fails when all are blocked", () => {
    const verdict = judge(botAccessParity, PAGE, {
      botFetches: [bot("GPTBot", 403, "no"), bot("ClaudeBot", 403, "no"), bot("PerplexityBot", 0, null, "timeout")],
    });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/status 403.*no answer \(timeout\)/);
  });

  it("skips when the page was not fetched as crawlers", () => {
    expect(judge(botAccessParity, PAGE).status).toBe("skip");
  });
});
