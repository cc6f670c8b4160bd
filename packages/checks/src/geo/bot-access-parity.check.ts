import { defineCheck } from "../check";
import { perPage } from "../lib/memo";
import { foldWhitespace, type Page, parseDocument } from "../page";

const visibleWords = (html: string): string[] => {
  const doc = parseDocument(html);
  for (const element of doc.querySelectorAll("script, style, noscript, template")) element.remove();
  const text = foldWhitespace(doc.body?.textContent ?? doc.documentElement?.textContent ?? "");
  return text === "" ? [] : text.toLowerCase().split(" ");
};

const servedWords = perPage((page: Page) => new Set(visibleWords(page.snapshot.rawHtml)));

/** Share of the words the scanner was served that the bot's copy also holds. */
const overlap = (page: Page, body: string): number => {
  const reference = servedWords(page);
  if (reference.size === 0) return 1;
  const bot = new Set(visibleWords(body));
  let shared = 0;
  for (const word of reference) if (bot.has(word)) shared += 1;
  return shared / reference.size;
};

/**
 * The page fetched again as GPTBot, ClaudeBot and PerplexityBot (full scans) should answer
 * like it answered the scanner: the same kind of status (2xx) and at least 80 % of the visible
 * words of the served HTML. Firewalls and bot managers that challenge AI crawlers show up here
 * as a 403/503 or a short challenge page. Compared as word sets of the served HTML (no
 * scripts run), so ads and rotating snippets move the share only a little.
 */
export const botAccessParity = defineCheck({
  id: "bot-access-parity",
  category: "geo",
  severity: "warning",
  maxScore: 4,
  quick: false,
  title: "AI crawlers get the same page",
  run: (page) => {
    const fetches = page.snapshot.botFetches;
    if (fetches.length === 0)
      return { status: "skip", description: "The page was not fetched as AI crawlers (quick scan)." };
    const verdicts = fetches.map((fetch) => {
      if (fetch.status === 0) return { bot: fetch.bot, same: false, note: `no answer (${fetch.error ?? "failed"})` };
      if (fetch.status < 200 || fetch.status >= 300)
        return { bot: fetch.bot, same: false, note: `status ${fetch.status}` };
      const share = overlap(page, fetch.body ?? "");
      return { bot: fetch.bot, same: share >= 0.8, note: `${Math.round(share * 100)} % of the text` };
    });
    const differ = verdicts.filter((v) => !v.same);
    const summary = verdicts.map((v) => `${v.bot}: ${v.note}`).join("; ");
    if (differ.length === 0) {
      return { status: "pass", description: `AI crawlers get the same page (${summary}).` };
    }
    return {
      status: differ.length === verdicts.length ? "fail" : "warn",
      description: `${differ.map((v) => v.bot).join(", ")} ${differ.length === 1 ? "gets" : "get"} a different answer than a browser (${summary}).`,
      fix: "Let AI crawlers through your firewall or bot manager (Cloudflare, Akamai, ...) for pages you want cited: allow their verified user agents instead of challenging them.",
    };
  },
});
