import type { CheckEvidence, EvidenceGrade } from "@scan/contract";

/**
 * Every check's evidence grade, page checks and site-audit checks alike, in one table: the
 * grade, the source it rests on, and the day that source was found to say so. docs/checks.md
 * ("Evidence grades") explains each grade and lists the sources only found through pages
 * quoting them. A check without a row fails registry.test.ts (page checks) and
 * site-checks.test.ts in @scan/audit (site checks).
 */

/** The day each source below was found and read. */
const CHECKED = "2026-11-27";

type Source = { title: string; url: string };

const S = {
  googleTitleLinks: {
    title: "Google Search Central: Influencing your title links in search results",
    url: "https://developers.google.com/search/docs/appearance/title-link",
  },
  googleSnippets: {
    title: "Google Search Central: Control your snippets in search results",
    url: "https://developers.google.com/search/docs/appearance/snippet",
  },
  googleRobotsMeta: {
    title: "Google Search Central: Robots meta tag, data-nosnippet, and X-Robots-Tag specifications",
    url: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag",
  },
  googleCanonical: {
    title: 'Google Search Central: How to specify a canonical URL with rel="canonical" and other methods',
    url: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
  },
  googleSitemaps: {
    title: "Google Search Central: Build and submit a sitemap",
    url: "https://developers.google.com/search/docs/crawling-indexing/sitemaps/build-sitemap",
  },
  googleLocalized: {
    title: "Google Search Central: Tell Google about localized versions of your page",
    url: "https://developers.google.com/search/docs/specialty/international/localized-versions",
  },
  googleRobotsTxt: {
    title: "Google Search Central: How Google interprets the robots.txt specification",
    url: "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt",
  },
  googleHttps: {
    title: "Google: HTTPS as a ranking signal (2014)",
    url: "https://security.googleblog.com/2014/08/https-as-ranking-signal_6.html",
  },
  googleAltText: {
    title: "Google for Developers: Write helpful alt text",
    url: "https://developers.google.com/tech-writing/accessibility/self-study/write-alt-text",
  },
  googleStructuredData: {
    title: "Google Search Central: Introduction to structured data markup in Google Search",
    url: "https://developers.google.com/search/docs/appearance/structured-data/intro-structured-data",
  },
  googleOrganization: {
    title: "Google Search Central: Organization structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/organization",
  },
  googleFaq: {
    title: "Google Search Central: FAQ (FAQPage) structured data (FAQ rich results no longer shown from 7 May 2026)",
    url: "https://developers.google.com/search/docs/appearance/structured-data/faqpage",
  },
  googleArticle: {
    title: "Google Search Central: Article structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/article",
  },
  googleBreadcrumb: {
    title: "Google Search Central: Breadcrumb (BreadcrumbList) structured data",
    url: "https://developers.google.com/search/docs/appearance/structured-data/breadcrumb",
  },
  googleSpeakable: {
    title: "Google Search Central: Speakable structured data (beta)",
    url: "https://developers.google.com/search/docs/appearance/structured-data/speakable",
  },
  googleBylineDates: {
    title: "Google Search Central: Influence your byline dates in Google Search",
    url: "https://developers.google.com/search/docs/appearance/publication-dates",
  },
  googleGenerativeAi: {
    title: "Google Search Central: Optimizing your website for generative AI features on Google Search (May 2026)",
    url: "https://developers.google.com/search/docs/fundamentals/ai-optimization-guide",
  },
  lighthouseHttpStatus: {
    title: "Lighthouse: Page has unsuccessful HTTP status code",
    url: "https://developer.chrome.com/docs/lighthouse/seo/http-status-code",
  },
  lighthouseServerResponse: {
    title: "Lighthouse audit: Reduce initial server response time (server-response-time)",
    url: "https://github.com/GoogleChrome/lighthouse/blob/main/core/audits/server-response-time.js",
  },
  lighthouseViewport: {
    title: 'Lighthouse: Does not have a <meta name="viewport"> tag with width or initial-scale',
    url: "https://developer.chrome.com/docs/lighthouse/best-practices/viewport",
  },
  lighthouseCharset: {
    title: "Lighthouse: Charset declaration is missing or occurs too late in the HTML",
    url: "https://developer.chrome.com/docs/lighthouse/best-practices/charset",
  },
  lighthouseHtmlLang: {
    title: "Lighthouse audit: <html> element has a [lang] attribute (html-has-lang)",
    url: "https://github.com/GoogleChrome/lighthouse/blob/main/core/audits/accessibility/html-has-lang.js",
  },
  lighthouseHeadingOrder: {
    title: "Lighthouse audit: Heading elements appear in a sequentially-descending order (heading-order)",
    url: "https://github.com/GoogleChrome/lighthouse/blob/main/core/audits/accessibility/heading-order.js",
  },
  lighthouseLinkText: {
    title: "Lighthouse audit: Links have descriptive text (link-text)",
    url: "https://github.com/GoogleChrome/lighthouse/blob/main/core/audits/seo/link-text.js",
  },
  lighthouseCrawlableAnchors: {
    title: "Lighthouse audit: Links are crawlable (crawlable-anchors)",
    url: "https://github.com/GoogleChrome/lighthouse/blob/main/core/audits/seo/crawlable-anchors.js",
  },
  lighthouseHttps: {
    title: "Lighthouse: Does not use HTTPS (mixed content)",
    url: "https://developer.chrome.com/docs/lighthouse/best-practices/is-on-https",
  },
  lighthouseAgentic: {
    title: "Lighthouse: Agentic Browsing scoring (experimental)",
    url: "https://developer.chrome.com/docs/lighthouse/agentic-browsing/scoring",
  },
  openaiCrawlers: {
    title: "OpenAI: Overview of OpenAI crawlers",
    url: "https://developers.openai.com/api/docs/bots",
  },
  anthropicCrawlers: {
    title: "Anthropic: Does Anthropic crawl data from the web, and how can site owners block the crawler?",
    url: "https://support.claude.com/en/articles/8896518",
  },
  geoPaper: {
    title: 'Aggarwal et al., "GEO: Generative Engine Optimization", KDD 2024',
    url: "https://arxiv.org/abs/2311.09735",
  },
  vercelAiCrawlers: {
    title: "Vercel and MERJ: The rise of the AI crawler",
    url: "https://vercel.com/blog/the-rise-of-the-ai-crawler",
  },
  ahrefsLlmsTxt: {
    title: "Ahrefs: 97% of llms.txt files never get read (137,000 sites analyzed)",
    url: "https://ahrefs.com/blog/llmstxt-study/",
  },
} satisfies Record<string, Source>;

const graded = (grade: EvidenceGrade, source: Source): CheckEvidence => ({ grade, source, checked: CHECKED });
const documented = (source: Source) => graded("documented", source);
const peerReviewed = (source: Source) => graded("peer_reviewed", source);
const industryStudy = (source: Source) => graded("industry_study", source);
const convention = (source: Source) => graded("convention", source);
/** a convention no vendor documentation or study found speaks to */
const unsourcedConvention: CheckEvidence = { grade: "convention", source: null, checked: null };

export const CHECK_EVIDENCE: Readonly<Record<string, CheckEvidence>> = {
  // SEO page checks
  "http-status": documented(S.lighthouseHttpStatus),
  "redirect-chain": unsourcedConvention,
  https: documented(S.googleHttps),
  ttfb: documented(S.lighthouseServerResponse),
  title: documented(S.googleTitleLinks),
  // Google: no limit on a title's length; it is truncated to the device's width
  "title-length": convention(S.googleTitleLinks),
  "meta-description": documented(S.googleSnippets),
  "meta-description-length": convention(S.googleSnippets),
  indexable: documented(S.googleRobotsMeta),
  canonical: documented(S.googleCanonical),
  h1: unsourcedConvention,
  "heading-order": documented(S.lighthouseHeadingOrder),
  lang: documented(S.lighthouseHtmlLang),
  viewport: documented(S.lighthouseViewport),
  charset: documented(S.lighthouseCharset),
  "image-alt": documented(S.googleAltText),
  "link-text": documented(S.lighthouseLinkText),
  "crawlable-anchors": documented(S.lighthouseCrawlableAnchors),
  hreflang: documented(S.googleLocalized),
  "robots-txt": documented(S.googleRobotsTxt),
  sitemap: documented(S.googleSitemaps),
  "open-graph": unsourcedConvention,
  "twitter-card": unsourcedConvention,
  "mixed-content": documented(S.lighthouseHttps),
  // AEO page checks
  "structured-data": documented(S.googleStructuredData),
  "organization-schema": documented(S.googleOrganization),
  "faq-schema": convention(S.googleFaq),
  "article-schema": documented(S.googleArticle),
  "breadcrumb-schema": documented(S.googleBreadcrumb),
  speakable: documented(S.googleSpeakable),
  // Google: content chunking, AI-specific rewriting and an ideal length are not needed
  "qa-content": convention(S.googleGenerativeAi),
  "answer-first": convention(S.googleGenerativeAi),
  "summary-intro": convention(S.googleGenerativeAi),
  "lists-and-tables": convention(S.googleGenerativeAi),
  "content-depth": convention(S.googleGenerativeAi),
  subheadings: convention(S.googleGenerativeAi),
  "semantic-landmarks": unsourcedConvention,
  // the paper's fluency and easy-to-understand rewrites
  readability: peerReviewed(S.geoPaper),
  "anchor-ids": convention(S.googleGenerativeAi),
  // GEO page checks
  "ai-search-access": documented(S.openaiCrawlers),
  "bot-access-parity": documented(S.anthropicCrawlers),
  "llms-txt": convention(S.ahrefsLlmsTxt),
  "llms-txt-format": convention(S.ahrefsLlmsTxt),
  "ai-snippet-directives": documented(S.googleRobotsMeta),
  "raw-html-content": industryStudy(S.vercelAiCrawlers),
  statistics: peerReviewed(S.geoPaper),
  "citations-outbound": peerReviewed(S.geoPaper),
  quotations: peerReviewed(S.geoPaper),
  author: documented(S.googleArticle),
  "publish-date": documented(S.googleBylineDates),
  freshness: unsourcedConvention,
  "entity-sameas": documented(S.googleOrganization),
  "trust-pages": unsourcedConvention,
  // agentic-browsing page checks
  "agent-accessibility-tree": documented(S.lighthouseAgentic),
  // WebMCP is a proposed standard; Lighthouse's audits of it are experimental and unscored
  "webmcp-form-coverage": convention(S.lighthouseAgentic),
  "webmcp-schema-validity": convention(S.lighthouseAgentic),
  "cumulative-layout-shift": documented(S.lighthouseAgentic),
  // site-audit checks
  "duplicate-titles": documented(S.googleTitleLinks),
  "duplicate-descriptions": documented(S.googleSnippets),
  "broken-internal-links": unsourcedConvention,
  "canonical-targets": documented(S.googleCanonical),
  "sitemap-noindex": documented(S.googleSitemaps),
  "sitemap-redirects": documented(S.googleSitemaps),
  "sitemap-blocked": documented(S.googleSitemaps),
  "sitemap-missing": documented(S.googleSitemaps),
  "redirect-chains": unsourcedConvention,
  "hreflang-return-links": documented(S.googleLocalized),
  "llms-txt-links": convention(S.ahrefsLlmsTxt),
  "ai-catalog": convention(S.lighthouseAgentic),
  "ai-catalog-schema": convention(S.lighthouseAgentic),
};

/** The weights by grade live with the grade in the contract, so every reader ranks by them alike. */
export { EVIDENCE_WEIGHTS } from "@scan/contract";

/** The check's evidence; a check id without a row is a catalogue bug, so it throws. */
export const evidenceFor = (checkId: string): CheckEvidence => {
  const evidence = CHECK_EVIDENCE[checkId];
  if (!evidence) throw new Error(`check ${checkId} has no evidence grade (packages/checks/src/evidence.ts)`);
  return evidence;
};
