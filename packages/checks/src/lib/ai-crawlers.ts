/**
 * The AI crawlers the checks and the robots.txt generator know, one row each: the product
 * token the vendor documents for robots.txt, what the agent does, and when the row was last
 * checked against the vendor's page (`docs`). Purposes:
 * - `search`: crawls to build the index an AI search or answer engine cites from;
 * - `user-fetch`: fetches a page when a user's question needs it (may not honour robots.txt);
 * - `training`: collects training data, or is the token that governs training use of pages
 *   another crawler fetched (Google-Extended, Applebot-Extended make no requests).
 */
export type AiCrawlerPurpose = "search" | "user-fetch" | "training";

export type AiCrawler = {
  token: string;
  vendor: string;
  purpose: AiCrawlerPurpose;
  /** the full User-Agent the vendor documents, when it sends requests under one of its own */
  userAgent: string | null;
  docs: string | null;
  /** ISO date the row was last compared with `docs` */
  checked: string;
  /** scored by ai-search-access (the six agents checks.md names); other search agents are reported only */
  scored?: true;
  /** bot-access-parity fetches the page with this agent's User-Agent (full scans) */
  parity?: true;
};

const OPENAI_DOCS = "https://developers.openai.com/api/docs/bots";
const ANTHROPIC_DOCS =
  "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler";
const PERPLEXITY_DOCS = "https://docs.perplexity.ai/guides/bots";
const GOOGLE_DOCS = "https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers";
const APPLE_DOCS = "https://support.apple.com/en-us/119829";
const META_DOCS = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers";
const CHECKED = "2026-11-24";

export const AI_CRAWLERS: readonly AiCrawler[] = [
  {
    token: "OAI-SearchBot",
    vendor: "OpenAI",
    purpose: "search",
    userAgent:
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot",
    docs: OPENAI_DOCS,
    checked: CHECKED,
    scored: true,
  },
  {
    token: "ChatGPT-User",
    vendor: "OpenAI",
    purpose: "user-fetch",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
    docs: OPENAI_DOCS,
    checked: CHECKED,
    scored: true,
  },
  {
    token: "Claude-SearchBot",
    vendor: "Anthropic",
    purpose: "search",
    userAgent: null,
    docs: ANTHROPIC_DOCS,
    checked: CHECKED,
    scored: true,
  },
  {
    token: "Claude-User",
    vendor: "Anthropic",
    purpose: "user-fetch",
    userAgent: null,
    docs: ANTHROPIC_DOCS,
    checked: CHECKED,
    scored: true,
  },
  {
    token: "PerplexityBot",
    vendor: "Perplexity",
    purpose: "search",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
    docs: PERPLEXITY_DOCS,
    checked: CHECKED,
    scored: true,
    parity: true,
  },
  {
    token: "Perplexity-User",
    vendor: "Perplexity",
    purpose: "user-fetch",
    userAgent: null,
    docs: PERPLEXITY_DOCS,
    checked: CHECKED,
    scored: true,
  },
  {
    token: "Googlebot",
    vendor: "Google",
    purpose: "search",
    userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    docs: GOOGLE_DOCS,
    checked: CHECKED,
  },
  { token: "Applebot", vendor: "Apple", purpose: "search", userAgent: null, docs: APPLE_DOCS, checked: CHECKED },
  { token: "Meta-WebIndexer", vendor: "Meta", purpose: "search", userAgent: null, docs: META_DOCS, checked: CHECKED },
  {
    token: "Meta-ExternalFetcher",
    vendor: "Meta",
    purpose: "user-fetch",
    userAgent: null,
    docs: META_DOCS,
    checked: CHECKED,
  },
  {
    token: "GPTBot",
    vendor: "OpenAI",
    purpose: "training",
    userAgent: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot",
    docs: OPENAI_DOCS,
    checked: CHECKED,
    parity: true,
  },
  {
    token: "ClaudeBot",
    vendor: "Anthropic",
    purpose: "training",
    userAgent:
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
    docs: ANTHROPIC_DOCS,
    checked: CHECKED,
    parity: true,
  },
  {
    token: "Google-Extended",
    vendor: "Google",
    purpose: "training",
    userAgent: null,
    docs: GOOGLE_DOCS,
    checked: CHECKED,
  },
  {
    token: "Applebot-Extended",
    vendor: "Apple",
    purpose: "training",
    userAgent: null,
    docs: APPLE_DOCS,
    checked: CHECKED,
  },
  {
    token: "CCBot",
    vendor: "Common Crawl",
    purpose: "training",
    userAgent: "CCBot/2.0 (https://commoncrawl.org/faq/)",
    docs: "https://commoncrawl.org/ccbot",
    checked: CHECKED,
  },
  {
    token: "Meta-ExternalAgent",
    vendor: "Meta",
    purpose: "training",
    userAgent: null,
    docs: META_DOCS,
    checked: CHECKED,
  },
  {
    token: "Bytespider",
    vendor: "ByteDance",
    purpose: "training",
    userAgent:
      "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
    // ByteDance publishes no crawler page; the token is the one its User-Agent sends
    docs: null,
    checked: CHECKED,
  },
];

const tokens = (rows: readonly AiCrawler[]): string[] => rows.map((row) => row.token);

/** The AI search and user agents ai-search-access scores (checks.md). */
export const AI_SEARCH_AGENTS: readonly string[] = tokens(AI_CRAWLERS.filter((row) => row.scored));
/** Other AI search and user agents: reported by ai-search-access, not scored. */
export const OTHER_AI_SEARCH_AGENTS: readonly string[] = tokens(
  AI_CRAWLERS.filter((row) => !row.scored && row.purpose !== "training"),
);
/** Training crawlers and tokens: blocking them is the site's choice, so never scored. */
export const AI_TRAINING_AGENTS: readonly string[] = tokens(AI_CRAWLERS.filter((row) => row.purpose === "training"));

/** The agents bot-access-parity compares, with the User-Agent each sends. */
export const PARITY_BOTS: readonly { bot: string; userAgent: string }[] = AI_CRAWLERS.filter(
  (row) => row.parity && row.userAgent,
).map((row) => ({ bot: row.token, userAgent: row.userAgent ?? "" }));
