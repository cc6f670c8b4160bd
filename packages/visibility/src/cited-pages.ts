import { hostIsOnDomain, hostOfUrl } from "./url";

/** What a stored answer says of its sources: enough to tell whose pages it cited. */
export type CitingAnswer = {
  promptId: string;
  promptText: string;
  citations: ReadonlyArray<{ url: string; domain: string }>;
};

export type CitedPageSide = "brand" | "competitor";

/** A page a run's answers cited, counted over the answers. */
export type CitedPage = {
  url: string;
  domain: string;
  side: CitedPageSide;
  /** the tracked competitor whose domain it is on; null for a page of no tracked company */
  competitor: string | null;
  /** answers citing it (an answer citing a page twice counts once) */
  citations: number;
};

/** Per prompt: the brand's pages its answers cited, and the pages cited in its answers that cited none of the brand's. */
export type PromptCitedPages = {
  promptId: string;
  prompt: string;
  brand: Array<{ url: string; citations: number }>;
  competitor: Array<{ url: string; citations: number }>;
};

export type CitedPageBounds = {
  /** the brand's pages kept, most cited first */
  brandPages: number;
  /** the other pages kept, most cited first */
  competitorPages: number;
};

/**
 * The pages of a run worth scanning: the brand's cited pages, and the pages cited in an answer
 * that cited none of the brand's (the competitor's page that took the brand's place for that
 * prompt). Each side is cut to its bound, most cited first, ties by URL, so the same run always
 * picks the same pages. A citation whose URL is not on its own domain (Gemini's redirect links,
 * which name the site only in their title) is no page that can be fetched, and is left out.
 */
export const citedPagesOf = (
  answers: readonly CitingAnswer[],
  brandDomains: readonly string[],
  competitors: ReadonlyArray<{ name: string; domains: readonly string[] }>,
  bounds: CitedPageBounds,
): { pages: CitedPage[]; prompts: PromptCitedPages[] } => {
  const isBrand = (domain: string) => brandDomains.some((own) => hostIsOnDomain(domain, own));
  const ownerOf = (domain: string) =>
    competitors.find((competitor) => competitor.domains.some((d) => hostIsOnDomain(domain, d)))?.name ?? null;
  const pages = new Map<string, CitedPage>();
  const prompts = new Map<string, { prompt: string; brand: Map<string, number>; competitor: Map<string, number> }>();
  for (const answer of answers) {
    const fetchable = answer.citations.filter((citation) => {
      const host = hostOfUrl(citation.url);
      return host !== null && hostIsOnDomain(host, citation.domain);
    });
    const own = fetchable.filter((citation) => isBrand(citation.domain));
    // an answer that cited the brand anywhere (a redirect link too) did not put another page in its place
    const citedBrand = answer.citations.some((citation) => isBrand(citation.domain));
    const kept = citedBrand ? own : fetchable;
    let prompt = prompts.get(answer.promptId);
    if (!prompt) {
      prompt = { prompt: answer.promptText, brand: new Map(), competitor: new Map() };
      prompts.set(answer.promptId, prompt);
    }
    for (const url of new Set(kept.map((citation) => citation.url))) {
      const citation = kept.find((c) => c.url === url);
      if (!citation) continue;
      const side: CitedPageSide = isBrand(citation.domain) ? "brand" : "competitor";
      const page = pages.get(url) ?? {
        url,
        domain: citation.domain,
        side,
        competitor: side === "brand" ? null : ownerOf(citation.domain),
        citations: 0,
      };
      page.citations += 1;
      pages.set(url, page);
      const counts = side === "brand" ? prompt.brand : prompt.competitor;
      counts.set(url, (counts.get(url) ?? 0) + 1);
    }
  }
  const mostCited = (a: { citations: number; url: string }, b: { citations: number; url: string }) =>
    b.citations - a.citations || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
  const all = [...pages.values()].sort(mostCited);
  const chosen = [
    ...all.filter((page) => page.side === "brand").slice(0, bounds.brandPages),
    ...all.filter((page) => page.side === "competitor").slice(0, bounds.competitorPages),
  ];
  const listed = (counts: Map<string, number>) =>
    [...counts.entries()].map(([url, citations]) => ({ url, citations })).sort(mostCited);
  return {
    pages: chosen,
    prompts: [...prompts.entries()]
      .map(([promptId, row]) => ({
        promptId,
        prompt: row.prompt,
        brand: listed(row.brand),
        competitor: listed(row.competitor),
      }))
      .sort((a, b) => (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : a.promptId < b.promptId ? -1 : 1)),
  };
};

/** One check's verdict on a page, as a stored scan holds it. */
export type CheckVerdict = {
  id: string;
  status: "pass" | "warn" | "fail" | "skip";
  title: string;
  category: string;
  severity: string;
};

/** A check the cited page passes and the brand's page does not. */
export type CheckGap = {
  check: string;
  title: string;
  category: string;
  severity: string;
  /** the brand page's verdict: fail or warn */
  yours: "fail" | "warn";
};

/**
 * What a cited page has that the brand's lacks: each check the cited page passes and the brand's
 * page fails or only half passes (warn), in the order of the cited page's checks. A check either
 * page skipped (it did not apply) or one the brand's page has no verdict for is no gap.
 */
export const checkGaps = (yours: readonly CheckVerdict[], theirs: readonly CheckVerdict[]): CheckGap[] => {
  const own = new Map(yours.map((check) => [check.id, check]));
  return theirs.flatMap((check) => {
    const mine = own.get(check.id);
    if (check.status !== "pass" || !mine || (mine.status !== "fail" && mine.status !== "warn")) return [];
    return [
      { check: check.id, title: check.title, category: check.category, severity: check.severity, yours: mine.status },
    ];
  });
};
