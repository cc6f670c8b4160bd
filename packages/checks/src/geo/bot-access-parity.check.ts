import type { BotFetch } from "@scan/contract";
import { defineCheck } from "../check";
import { PARITY_BOTS } from "../lib/ai-crawlers";
import { perPage } from "../lib/memo";
import { type Page, parseDocument } from "../page";
import { sharedWords, visibleText, type WordCounts, wordCounts } from "./words";

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

const bodyWords = (doc: Document): WordCounts => wordCounts(visibleText(doc.body ?? doc.documentElement));

/** The words of the document as served to the scanner, the copy each crawler's answer is held against. */
const servedWords = perPage((page: Page): WordCounts => bodyWords(page.rawDoc));

type Comparison = { bot: string; same: boolean; note: string };

const compare = (page: Page, fetch: BotFetch): Comparison => {
  const { bot } = fetch;
  if (fetch.status === 0) return { bot, same: false, note: `no answer (${fetch.error ?? "the fetch failed"})` };
  if (!isSuccess(fetch.status)) return { bot, same: false, note: `status ${fetch.status}` };
  const body = fetch.body ?? "";
  // the usual case, and no parse needed
  if (body === page.snapshot.rawHtml) return { bot, same: true, note: "the same HTML" };
  const reference = servedWords(page);
  if (reference.total === 0) return { bot, same: true, note: `status ${fetch.status}` };
  const share = Math.floor(sharedWords(reference, bodyWords(parseDocument(body))) * 100);
  return { bot, same: share >= 80, note: `${share} % of the text` };
};

/**
 * The page fetched again as the AI crawlers of lib/ai-crawlers.ts marked `parity` (GPTBot,
 * ClaudeBot, PerplexityBot; the worker fetches as them in full scans only) should
 * answer as it answered the scanner: a 2xx, and at least 80 % of the visible words of the
 * HTML served to the scanner, counted with repetition (rounded down). Words, not bytes, so
 * that nonces, timestamps and rotating markup do not count as a difference. Firewalls and bot
 * managers that turn AI crawlers away show up as a 403/429/503, a failed fetch or a short
 * challenge page. Every crawler differing fails, some warns. The check skips when the bot
 * fetches were not made (quick scans), and when the page itself does not answer 2xx: there is
 * no page to compare (http-status judges that).
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
      return {
        status: "skip",
        description: `The page was not fetched with the user agents of ${PARITY_BOTS.map((bot) => bot.bot).join(", ")} (quick scan).`,
      };
    if (!isSuccess(page.snapshot.status))
      return {
        status: "skip",
        description: `The page answers ${page.snapshot.status}, so there is no page to compare the crawlers' copies with.`,
      };
    const comparisons = fetches.map((fetch) => compare(page, fetch));
    const differ = comparisons.filter((comparison) => !comparison.same);
    const summary = comparisons.map((comparison) => `${comparison.bot}: ${comparison.note}`).join("; ");
    if (differ.length === 0) {
      return {
        status: "pass",
        description: `AI crawlers get the same page as a browser (${summary}).`,
      };
    }
    const names = differ.map((comparison) => comparison.bot).join(", ");
    return {
      status: differ.length === comparisons.length ? "fail" : "warn",
      description: `${names} ${differ.length === 1 ? "gets" : "get"} a different answer than a browser (${summary}), as when a firewall or bot manager blocks or challenges AI crawlers.`,
      fix: `Let ${names} through your firewall or bot manager (Cloudflare, Akamai, ...) on pages you want cited: allow their verified user agents instead of blocking or challenging them.`,
      evidence: differ.map((comparison) => `${comparison.bot}: ${comparison.note}`),
    };
  },
});
