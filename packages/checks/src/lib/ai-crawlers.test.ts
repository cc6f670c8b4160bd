import { AI_CRAWLERS, AI_SEARCH_AGENTS, AI_TRAINING_AGENTS, OTHER_AI_SEARCH_AGENTS, PARITY_BOTS } from "./ai-crawlers";
import { isValidProductToken } from "./robots-txt";

describe("the AI crawler table", () => {
  it("holds each documented product token once, as a token robots.txt can name", () => {
    const tokens = AI_CRAWLERS.map((row) => row.token);
    expect(new Set(tokens.map((token) => token.toLowerCase())).size).toBe(tokens.length);
    for (const row of AI_CRAWLERS) {
      expect(isValidProductToken(row.token)).toBe(true);
      expect(row.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (row.userAgent) expect(row.userAgent).toContain(row.token);
    }
  });

  it("gives ai-search-access the six agents checks.md scores and the seven training crawlers it reports", () => {
    expect(AI_SEARCH_AGENTS).toEqual([
      "OAI-SearchBot",
      "ChatGPT-User",
      "Claude-SearchBot",
      "Claude-User",
      "PerplexityBot",
      "Perplexity-User",
    ]);
    expect(AI_TRAINING_AGENTS).toEqual([
      "GPTBot",
      "ClaudeBot",
      "Google-Extended",
      "Applebot-Extended",
      "CCBot",
      "Meta-ExternalAgent",
      "Bytespider",
    ]);
    expect(OTHER_AI_SEARCH_AGENTS).toEqual(["Googlebot", "Applebot", "Meta-WebIndexer", "Meta-ExternalFetcher"]);
  });

  it("gives bot-access-parity the three crawlers checks.md names, each with its User-Agent", () => {
    expect(PARITY_BOTS.map((bot) => bot.bot).sort()).toEqual(["ClaudeBot", "GPTBot", "PerplexityBot"]);
    for (const bot of PARITY_BOTS) expect(bot.userAgent).toMatch(new RegExp(`${bot.bot}/\\d`));
  });
});
