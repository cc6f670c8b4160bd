import type { AiEngine } from "@scan/contract";

/**
 * The demo account's sites, keywords and tracked AI-engine queries. Hosts are under the
 * reserved `.example` top-level domain (RFC 2606), so no real business is named or scanned.
 */

export type DemoKeyword = {
  keyword: string;
  /** the position recorded before the current one; null for a keyword tracked once (trend new) */
  previous: number | null;
  position: number;
  volume: number;
  difficulty: number;
};

export type DemoSite = {
  url: string;
  name: string;
  isVerified: boolean;
  /** latest scores and their scan mode; null for a site never scanned */
  scores: { seo: number; aeo: number; geo: number; mode: "quick" | "full"; daysAgo: number } | null;
  keywords: DemoKeyword[];
  /** queries asked of the AI engines, with how often each engine cites the site (0 to 1) */
  queries: Array<{ text: string; path: string; citeRate: Partial<Record<AiEngine, number>> }>;
  /** pages the engines cite instead when they do not cite the site */
  competitors: string[];
};

const k = (keyword: string, previous: number | null, position: number, volume: number, difficulty: number) => ({
  keyword,
  previous,
  position,
  volume,
  difficulty,
});

export const DEMO_SITES: DemoSite[] = [
  {
    url: "https://www.northwind-coffee.example",
    name: "Northwind Coffee",
    isVerified: true,
    scores: { seo: 88, aeo: 74, geo: 69, mode: "full", daysAgo: 1 },
    keywords: [
      k("best espresso beans", 9, 6, 14800, 61),
      k("single origin coffee subscription", 14, 11, 2400, 48),
      k("cold brew coffee ratio", 4, 4, 9900, 35),
      k("how to descale an espresso machine", 18, 23, 6600, 29),
      k("light roast vs dark roast caffeine", null, 31, 5400, 33),
      k("fair trade coffee beans", 27, 19, 3600, 52),
      k("coffee grind size chart", 7, 5, 8100, 27),
      k("decaf coffee process swiss water", 12, 12, 1300, 24),
    ],
    queries: [
      {
        text: "What are the best espresso beans for a home machine?",
        path: "/guides/espresso-beans",
        citeRate: { chatgpt: 0.55, claude: 0.35, perplexity: 0.8, gemini: 0.4 },
      },
      {
        text: "What is the right coffee to water ratio for cold brew?",
        path: "/guides/cold-brew-ratio",
        citeRate: { chatgpt: 0.3, claude: 0.25, perplexity: 0.65, gemini: 0.5 },
      },
      {
        text: "Which coffee subscriptions ship single origin beans?",
        path: "/subscriptions",
        citeRate: { chatgpt: 0.2, claude: 0.1, perplexity: 0.45, gemini: 0.15 },
      },
      {
        text: "How fine should I grind coffee for a pour over?",
        path: "/guides/grind-size",
        citeRate: { chatgpt: 0.4, claude: 0.3, perplexity: 0.7, gemini: 0.35 },
      },
    ],
    competitors: [
      "https://www.coffee-review.example/espresso",
      "https://baristahub.example/guides/cold-brew",
      "https://en.wikipedia.example/wiki/Coffee_preparation",
    ],
  },
  {
    url: "https://blog.northwind-coffee.example",
    name: "Northwind Coffee Journal",
    isVerified: true,
    scores: { seo: 81, aeo: 83, geo: 77, mode: "full", daysAgo: 3 },
    keywords: [
      k("history of espresso", 22, 15, 2900, 38),
      k("what is a flat white", 8, 9, 12100, 31),
      k("coffee tasting notes wheel", 13, 8, 1900, 26),
      k("does coffee dehydrate you", 35, 28, 4400, 44),
      k("arabica vs robusta", 6, 6, 18100, 57),
    ],
    queries: [
      {
        text: "What is the difference between a flat white and a latte?",
        path: "/posts/flat-white-vs-latte",
        citeRate: { chatgpt: 0.35, claude: 0.3, perplexity: 0.6, gemini: 0.45 },
      },
      {
        text: "Is arabica or robusta coffee stronger?",
        path: "/posts/arabica-vs-robusta",
        citeRate: { chatgpt: 0.25, claude: 0.2, perplexity: 0.55, gemini: 0.3 },
      },
    ],
    competitors: ["https://www.coffee-review.example/arabica-robusta", "https://baristahub.example/flat-white"],
  },
  {
    url: "https://docs.contoso-cloud.example",
    name: "Contoso Cloud Docs",
    isVerified: false,
    scores: { seo: 92, aeo: 88, geo: 71, mode: "full", daysAgo: 6 },
    keywords: [
      k("kubernetes autoscaling tutorial", 16, 12, 5400, 66),
      k("terraform remote state backend", 9, 7, 3600, 58),
      k("postgres connection pooling", 21, 17, 4400, 62),
      k("object storage lifecycle rules", 5, 4, 1600, 41),
      k("zero downtime database migration", 30, 24, 2900, 64),
      k("cloud cost allocation tags", null, 42, 880, 39),
    ],
    queries: [
      {
        text: "How do I set up autoscaling for a Kubernetes deployment?",
        path: "/kubernetes/autoscaling",
        citeRate: { chatgpt: 0.45, claude: 0.5, perplexity: 0.75, gemini: 0.4 },
      },
      {
        text: "How should I configure connection pooling for Postgres?",
        path: "/databases/postgres/pooling",
        citeRate: { chatgpt: 0.3, claude: 0.4, perplexity: 0.6, gemini: 0.25 },
      },
      {
        text: "How do I run a database migration without downtime?",
        path: "/databases/zero-downtime-migrations",
        citeRate: { chatgpt: 0.2, claude: 0.3, perplexity: 0.5, gemini: 0.2 },
      },
    ],
    competitors: [
      "https://kubernetes-docs.example/tasks/autoscale",
      "https://devforum.example/questions/postgres-pooling",
    ],
  },
  {
    url: "https://fabrikam-outdoor.example",
    name: "Fabrikam Outdoor",
    isVerified: false,
    // only quick scans so far: partial scores, flagged as such
    scores: { seo: 64, aeo: 41, geo: 38, mode: "quick", daysAgo: 2 },
    keywords: [
      k("best ultralight tent", 48, 37, 8100, 59),
      k("how to waterproof hiking boots", 19, 21, 3600, 32),
      k("down vs synthetic sleeping bag", null, 55, 2400, 45),
      k("trail running shoes for wide feet", 26, 26, 4400, 47),
    ],
    queries: [
      {
        text: "What is the best ultralight tent for backpacking?",
        path: "/gear/tents",
        citeRate: { chatgpt: 0.05, claude: 0.05, perplexity: 0.2, gemini: 0.1 },
      },
      {
        text: "How do I waterproof leather hiking boots?",
        path: "/guides/waterproof-boots",
        citeRate: { chatgpt: 0.1, claude: 0.05, perplexity: 0.3, gemini: 0.15 },
      },
    ],
    competitors: ["https://trailgear-reviews.example/tents", "https://hikers-forum.example/boots"],
  },
  {
    url: "https://tailspin-travel.example",
    name: "Tailspin Travel",
    isVerified: true,
    scores: { seo: 76, aeo: 58, geo: 62, mode: "full", daysAgo: 12 },
    keywords: [
      k("lisbon 3 day itinerary", 11, 14, 6600, 43),
      k("best time to visit iceland", 7, 5, 22200, 55),
      k("cheap flights to tokyo tips", 39, 33, 5400, 68),
      k("travel insurance for backpackers", 24, 29, 3600, 71),
      k("rail pass europe worth it", 15, 10, 2900, 40),
    ],
    queries: [
      {
        text: "What is a good 3 day itinerary for Lisbon?",
        path: "/itineraries/lisbon-3-days",
        citeRate: { chatgpt: 0.3, claude: 0.2, perplexity: 0.55, gemini: 0.35 },
      },
      {
        text: "When is the best time of year to visit Iceland?",
        path: "/guides/iceland-seasons",
        citeRate: { chatgpt: 0.25, claude: 0.2, perplexity: 0.5, gemini: 0.4 },
      },
      {
        text: "Is a Eurail pass worth it for two weeks in Europe?",
        path: "/guides/rail-pass",
        citeRate: { chatgpt: 0.15, claude: 0.15, perplexity: 0.4, gemini: 0.2 },
      },
    ],
    competitors: ["https://wanderwiki.example/lisbon", "https://travel-forum.example/iceland-when"],
  },
  {
    url: "https://litware-legal.example",
    name: "Litware Legal",
    isVerified: false,
    scores: null,
    keywords: [
      k("how to register a trademark", null, 64, 9900, 72),
      k("llc vs sole proprietorship", null, 81, 14800, 76),
    ],
    queries: [
      {
        text: "How long does it take to register a trademark?",
        path: "/guides/trademark-registration",
        citeRate: { chatgpt: 0, claude: 0, perplexity: 0.1, gemini: 0 },
      },
    ],
    competitors: ["https://govinfo.example/trademarks/faq", "https://legal-answers.example/trademark-timeline"],
  },
];
