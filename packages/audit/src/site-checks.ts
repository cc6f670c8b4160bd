import { AiCatalogDiscovery, aiCatalogState, evidenceFor } from "@scan/checks";
import type { AuditPageStatus, CheckCategory, CheckSeverity, SiteCheckResult, SiteFinding } from "@scan/contract";
import type { CrawlerRobots } from "./crawler-robots";
import type { PageFacts } from "./page-facts";
import { normaliseAuditUrl } from "./urls";

/** what discovery found of the site's ai-catalog.json, as the site checks read it */
export { AiCatalogDiscovery };

/** One page of an audit as the site checks read it. */
export type AuditedPage = {
  url: string;
  status: AuditPageStatus;
  httpStatus: number | null;
  inSitemap: boolean;
  facts: PageFacts | null;
};

/** What an answer to a URL was, as far as the audit knows it. */
export type Answer = { status: number; redirected: boolean; finalUrl: string | null };

export type SiteCheckInput = {
  origin: string;
  pages: readonly AuditedPage[];
  robots: Pick<CrawlerRobots, "allowsGooglebot">;
  llmsTxt: { url: string; status: number; body: string | null } | null;
  /** the ai-catalog.json looked for from the start page (null: not looked for, as in audits stored before it was) */
  aiCatalog?: AiCatalogDiscovery | null;
  /** answers to URLs the audit did not scan as pages (llms.txt's links), fetched when the audit finished */
  extraAnswers: ReadonlyMap<string, Answer>;
};

/** findings kept per check, and pages kept per finding */
export const MAX_FINDINGS = 100;
export const MAX_FINDING_PAGES = 50;

type Found = { applicable: boolean; findings: SiteFinding[]; why?: string };

export type SiteCheckDefinition = {
  id: string;
  category: CheckCategory;
  severity: CheckSeverity;
  maxScore: number;
  title: string;
  /** what one finding is, for the description: "URL with a duplicate title" */
  noun: [singular: string, plural: string];
  fix: string;
  /** why the check did not apply, for its skip */
  notApplicable: string;
  passed: string;
  run: (site: SiteView) => Found;
};

/** The audit's pages indexed for the checks. */
export type SiteView = SiteCheckInput & {
  byUrl: ReadonlyMap<string, AuditedPage>;
  answerOf: (url: string) => Answer | null;
  /** pages that answered 2xx at their own URL: what a visitor and a search engine see as pages */
  judged: readonly AuditedPage[];
  linkersOf: (url: string) => string[];
};

const isOk = (status: number) => status >= 200 && status < 300;

const viewOf = (input: SiteCheckInput): SiteView => {
  const byUrl = new Map(input.pages.map((page) => [page.url, page]));
  const answerOf = (url: string): Answer | null => {
    const page = byUrl.get(url);
    if (page?.status === "scanned" && page.httpStatus !== null)
      return {
        status: page.httpStatus,
        redirected: (page.facts?.redirects.length ?? 0) > 0,
        finalUrl: page.facts?.redirects.length ? (page.facts.redirects.at(-1)?.url ?? null) : null,
      };
    if (page?.status === "failed") return { status: page.httpStatus ?? 0, redirected: false, finalUrl: null };
    return input.extraAnswers.get(url) ?? null;
  };
  const judged = input.pages.filter(
    (page) =>
      page.status === "scanned" &&
      page.httpStatus !== null &&
      isOk(page.httpStatus) &&
      page.facts !== null &&
      page.facts.redirects.length === 0,
  );
  const linkers = new Map<string, string[]>();
  for (const page of judged) {
    for (const link of page.facts?.links ?? []) {
      const list = linkers.get(link) ?? [];
      list.push(page.url);
      linkers.set(link, list);
    }
  }
  return { ...input, byUrl, answerOf, judged, linkersOf: (url) => linkers.get(url) ?? [] };
};

const describeAnswer = (answer: Answer): string =>
  answer.status === 0 ? "gets no answer" : `answers ${answer.status}`;

/** Pages that share one value (title, description), counted once per canonical URL. */
const duplicates = (site: SiteView, read: (facts: PageFacts) => string | null, what: string): Found => {
  const groups = new Map<string, { value: string; keys: string[] }>();
  for (const page of site.judged) {
    const facts = page.facts as PageFacts;
    if (facts.noindex) continue;
    const value = read(facts);
    if (value === null) continue;
    // pages that name one canonical URL are one page to a search engine, not duplicates
    const key = facts.canonical ?? page.url;
    const folded = value.toLowerCase();
    const group = groups.get(folded) ?? { value, keys: [] };
    if (!group.keys.includes(key)) group.keys.push(key);
    groups.set(folded, group);
  }
  const findings: SiteFinding[] = [];
  for (const { value, keys } of groups.values()) {
    if (keys.length < 2) continue;
    // named by the first of its pages in URL order, so a finding keeps its name from one audit to the next
    const sorted = [...keys].sort();
    findings.push({
      url: sorted[0] as string,
      detail: `${keys.length} pages share the ${what} "${value}"`,
      pages: sorted,
    });
  }
  return { applicable: site.judged.length > 0, findings };
};

const sitemapPages = (site: SiteView) => site.pages.filter((page) => page.inSitemap);

/** The site checks, in catalogue order (docs/audits.md, Site checks). */
export const siteChecks: readonly SiteCheckDefinition[] = [
  {
    id: "duplicate-titles",
    category: "seo",
    severity: "warning",
    maxScore: 5,
    title: "Every page has its own title",
    noun: ["title shared by several pages", "titles shared by several pages"],
    fix: "Give each page a title that names what only that page is about; if two URLs show one page, point both at one canonical URL.",
    notApplicable: "No page answered 200 at its own URL.",
    passed: "No two indexable pages (counted once per canonical URL) share a title.",
    run: (site) => duplicates(site, (facts) => facts.title, "title"),
  },
  {
    id: "duplicate-descriptions",
    category: "seo",
    severity: "info",
    maxScore: 3,
    title: "Every page has its own meta description",
    noun: ["meta description shared by several pages", "meta descriptions shared by several pages"],
    fix: "Write a meta description for each page that summarises that page; search engines and AI answers quote it.",
    notApplicable: "No page answered 200 at its own URL.",
    passed: "No two indexable pages (counted once per canonical URL) share a meta description.",
    run: (site) => duplicates(site, (facts) => facts.description, "meta description"),
  },
  {
    id: "broken-internal-links",
    category: "seo",
    severity: "critical",
    maxScore: 8,
    title: "Internal links lead to pages that answer",
    noun: ["broken internal link target", "broken internal link targets"],
    fix: "Point each link at a page that answers 200, restore the missing page, or redirect its old URL to its successor.",
    notApplicable: "No page answered 200 at its own URL.",
    passed: "Every internal link the audit followed leads to a page that answers without an error.",
    run: (site) => {
      const findings: SiteFinding[] = [];
      const targets = new Set(site.judged.flatMap((page) => page.facts?.links ?? []));
      for (const target of targets) {
        const answer = site.answerOf(target);
        if (!answer || (answer.status < 400 && answer.status !== 0)) continue;
        findings.push({
          url: target,
          detail: `linked from ${site.linkersOf(target).length} page(s) and ${describeAnswer(answer)}`,
          pages: site.linkersOf(target),
        });
      }
      return { applicable: site.judged.length > 0, findings };
    },
  },
  {
    id: "canonical-targets",
    category: "seo",
    severity: "warning",
    maxScore: 5,
    title: "Canonical URLs answer 200 without a redirect",
    noun: ["canonical URL that does not answer 200", "canonical URLs that do not answer 200"],
    fix: "Point the canonical link at the final URL of a page that answers 200 (not at a redirect, a missing page or an error).",
    notApplicable: "No page declares a canonical URL on this site.",
    passed: "Every canonical URL on the site answers 200 without a redirect.",
    run: (site) => {
      const byTarget = new Map<string, string[]>();
      for (const page of site.judged) {
        const canonical = page.facts?.canonical;
        if (!canonical || canonical === page.url || new URL(canonical).origin !== site.origin) continue;
        byTarget.set(canonical, [...(byTarget.get(canonical) ?? []), page.url]);
      }
      const findings: SiteFinding[] = [];
      for (const [target, pages] of byTarget) {
        const answer = site.answerOf(target);
        if (!answer) continue;
        if (answer.status === 200 && !answer.redirected) continue;
        const detail = answer.redirected
          ? `the canonical URL redirects${answer.status !== 200 ? ` and ${describeAnswer(answer)}` : ""}`
          : `the canonical URL ${describeAnswer(answer)}`;
        findings.push({ url: target, detail, pages });
      }
      return { applicable: site.judged.some((page) => page.facts?.canonical), findings };
    },
  },
  {
    id: "sitemap-noindex",
    category: "seo",
    severity: "warning",
    maxScore: 3,
    title: "The sitemap lists no noindex page",
    noun: ["sitemap URL marked noindex", "sitemap URLs marked noindex"],
    fix: "List only pages you want indexed: drop noindex pages from the sitemap, or remove their noindex.",
    notApplicable: "The audit found no sitemap URL on this site.",
    passed: "No sitemap URL is marked noindex.",
    run: (site) => ({
      applicable: sitemapPages(site).length > 0,
      findings: sitemapPages(site)
        .filter((page) => page.status === "scanned" && page.facts?.noindex)
        .map((page) => ({ url: page.url, detail: "listed in the sitemap and marked noindex", pages: [page.url] })),
    }),
  },
  {
    id: "sitemap-redirects",
    category: "seo",
    severity: "info",
    maxScore: 2,
    title: "The sitemap lists final URLs, not redirects",
    noun: ["sitemap URL that redirects", "sitemap URLs that redirect"],
    fix: "List each page at its final URL; search engines treat a redirecting sitemap URL as a hint they must correct.",
    notApplicable: "The audit found no sitemap URL on this site.",
    passed: "No sitemap URL redirects.",
    run: (site) => ({
      applicable: sitemapPages(site).length > 0,
      findings: sitemapPages(site)
        .filter((page) => page.status === "scanned" && (page.facts?.redirects.length ?? 0) > 0)
        .map((page) => ({
          url: page.url,
          detail: `listed in the sitemap and redirects (${page.facts?.redirects.map((hop) => hop.status).join(", ")})`,
          pages: [page.url],
        })),
    }),
  },
  {
    id: "sitemap-blocked",
    category: "seo",
    severity: "warning",
    maxScore: 3,
    title: "The sitemap lists no URL robots.txt blocks",
    noun: ["sitemap URL blocked by robots.txt", "sitemap URLs blocked by robots.txt"],
    fix: "Either allow the URL in robots.txt or take it out of the sitemap: a sitemap asks search engines to crawl what robots.txt forbids.",
    notApplicable: "The audit found no sitemap URL on this site.",
    passed: "robots.txt allows Googlebot every sitemap URL.",
    run: (site) => ({
      applicable: sitemapPages(site).length > 0,
      findings: sitemapPages(site)
        .filter((page) => page.status === "blocked" || !site.robots.allowsGooglebot(page.url))
        .map((page) => ({
          url: page.url,
          detail: "listed in the sitemap and disallowed by robots.txt",
          pages: [page.url],
        })),
    }),
  },
  {
    id: "sitemap-missing",
    category: "seo",
    severity: "warning",
    maxScore: 3,
    title: "Every sitemap URL exists",
    noun: ["sitemap URL that is missing or broken", "sitemap URLs that are missing or broken"],
    fix: "Remove URLs of deleted pages from the sitemap, or restore the pages; keep the sitemap generated from the pages that exist.",
    notApplicable: "The audit found no sitemap URL on this site.",
    passed: "Every sitemap URL the audit fetched answers without an error.",
    run: (site) => ({
      applicable: sitemapPages(site).length > 0,
      findings: sitemapPages(site).flatMap((page) => {
        const answer = site.answerOf(page.url);
        if (!answer || (answer.status < 400 && answer.status !== 0)) return [];
        return [{ url: page.url, detail: `listed in the sitemap and ${describeAnswer(answer)}`, pages: [page.url] }];
      }),
    }),
  },
  {
    id: "redirect-chains",
    category: "seo",
    severity: "warning",
    maxScore: 3,
    title: "Redirects take one hop",
    noun: ["URL with a redirect chain", "URLs with a redirect chain"],
    fix: "Redirect the first URL straight to the final one, and update links to point at the final URL.",
    notApplicable: "No page was scanned.",
    passed: "No URL the audit followed redirects more than once.",
    run: (site) => ({
      applicable: site.pages.some((page) => page.status === "scanned"),
      findings: site.pages
        .filter((page) => page.status === "scanned" && (page.facts?.redirects.length ?? 0) > 1)
        .map((page) => {
          const hops = page.facts?.redirects ?? [];
          return {
            url: page.url,
            detail: `${hops.length} redirects: ${hops.map((hop) => `${hop.url} (${hop.status})`).join(" → ")}`,
            pages: [page.url, ...site.linkersOf(page.url)],
          };
        }),
    }),
  },
  {
    id: "hreflang-return-links",
    category: "seo",
    severity: "info",
    maxScore: 2,
    title: "hreflang alternates link back",
    noun: ["hreflang annotation without a return link", "hreflang annotations without a return link"],
    fix: "Give every language version the same set of hreflang links, each page naming all the others and itself; search engines ignore a pair that does not confirm itself.",
    notApplicable: "No page has hreflang annotations to pages of this site.",
    passed: "Every hreflang alternate the audit scanned links back.",
    run: (site) => {
      const findings: SiteFinding[] = [];
      let applicable = false;
      for (const page of site.judged) {
        for (const { lang, href } of page.facts?.hreflang ?? []) {
          if (href === page.url || new URL(href).origin !== site.origin) continue;
          applicable = true;
          const target = site.byUrl.get(href);
          if (target?.status !== "scanned" || !target.facts) continue;
          const back = new Set([page.url, page.facts?.canonical].filter(Boolean));
          if (target.facts.hreflang.some((alternate) => back.has(alternate.href))) continue;
          findings.push({
            url: page.url,
            detail: `hreflang "${lang}" points at ${href}, which has no hreflang link back`,
            pages: [page.url, href],
          });
        }
      }
      return { applicable, findings };
    },
  },
  {
    id: "llms-txt-links",
    category: "geo",
    severity: "info",
    maxScore: 2,
    title: "llms.txt links resolve",
    noun: ["llms.txt link that does not resolve", "llms.txt links that do not resolve"],
    fix: "Update llms.txt to link to pages that exist (answering 200), or restore the pages it lists.",
    notApplicable: "The site has no llms.txt with links.",
    passed: "Every link in llms.txt resolves.",
    run: (site) => {
      const links = llmsTxtLinks(site.llmsTxt);
      const findings: SiteFinding[] = [];
      for (const link of links) {
        const answer = site.answerOf(link);
        if (!answer || (answer.status < 400 && answer.status !== 0)) continue;
        findings.push({
          url: link,
          detail: `listed in llms.txt and ${describeAnswer(answer)}`,
          pages: [site.llmsTxt?.url ?? ""],
        });
      }
      return { applicable: links.length > 0, findings };
    },
  },
  {
    id: "ai-catalog",
    category: "geo",
    severity: "info",
    maxScore: 2,
    title: "The ai-catalog.json the site names answers",
    noun: ["ai-catalog.json that cannot be read", "ai-catalog.json files that cannot be read"],
    fix: 'Serve the catalog at the URL the <link rel="ai-catalog">, the Link header or robots.txt names, with 200 and its JSON, or point them at where it lives.',
    notApplicable: "The site names no ai-catalog.json and has none at /.well-known/ai-catalog.json.",
    passed: "The site's ai-catalog.json answers 200 where it is named.",
    run: (site) => {
      const state = site.aiCatalog ? aiCatalogState(site.aiCatalog) : null;
      if (!state || state.kind === "absent") return { applicable: false, findings: [] };
      if (state.kind === "read") return { applicable: true, findings: [] };
      return { applicable: true, findings: [{ url: state.url, detail: state.why, pages: [site.origin] }] };
    },
  },
  {
    id: "ai-catalog-schema",
    category: "geo",
    severity: "info",
    maxScore: 3,
    title: "ai-catalog.json is valid against the ARD schema",
    noun: ["ai-catalog.json error", "ai-catalog.json errors"],
    fix: 'Make ai-catalog.json match the ARD schema: specVersion "1.0", and entries each with a urn:air: identifier, a displayName, a media type and exactly one of url or data.',
    notApplicable: "There is no readable ai-catalog.json to validate.",
    passed: "ai-catalog.json is valid against the ARD specification's schema and rules.",
    run: (site) => {
      const state = site.aiCatalog ? aiCatalogState(site.aiCatalog) : null;
      if (state?.kind !== "read") return { applicable: false, findings: [] };
      return {
        applicable: true,
        findings: state.errors.map((error) => ({
          url: state.url,
          detail: `${error.element}: ${error.message}`,
          pages: [state.url],
        })),
      };
    },
  },
];

/** llms.txt links kept for checking */
export const MAX_LLMS_LINKS = 200;

/** The markdown links of an llms.txt that answered 2xx, absolute and normalised (llmstxt.org: `- [name](url): notes`). */
export const llmsTxtLinks = (llms: SiteCheckInput["llmsTxt"]): string[] => {
  if (!llms || !isOk(llms.status) || !llms.body) return [];
  const links = new Set<string>();
  for (const match of llms.body.matchAll(/\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const url = normaliseAuditUrl(match[1] ?? "", llms.url);
    if (url) links.add(url);
    if (links.size >= MAX_LLMS_LINKS) break;
  }
  return [...links];
};

const summarise = (definition: SiteCheckDefinition, findings: readonly SiteFinding[]): string => {
  const [one, many] = definition.noun;
  const shown = findings
    .slice(0, 3)
    .map((finding) => finding.url)
    .join(", ");
  const more = findings.length > 3 ? ` and ${findings.length - 3} more` : "";
  return `${findings.length} ${findings.length === 1 ? one : many}: ${shown}${more}.`;
};

/** Runs every site check over the audit's pages. */
export const runSiteChecks = (input: SiteCheckInput): SiteCheckResult[] => {
  const site = viewOf(input);
  return siteChecks.map((definition): SiteCheckResult => {
    const { applicable, findings } = definition.run(site);
    const base = {
      id: definition.id,
      category: definition.category,
      severity: definition.severity,
      maxScore: definition.maxScore,
      title: definition.title,
      evidence: evidenceFor(definition.id),
    };
    const kept = findings.slice(0, MAX_FINDINGS).map((finding) => ({
      ...finding,
      pages: [...new Set(finding.pages)].slice(0, MAX_FINDING_PAGES),
    }));
    if (!applicable)
      return {
        ...base,
        status: "skip",
        score: 0,
        description: definition.notApplicable,
        fix: "",
        findings: [],
        findings_total: 0,
      };
    if (findings.length === 0)
      return {
        ...base,
        status: "pass",
        score: definition.maxScore,
        description: definition.passed,
        fix: "",
        findings: [],
        findings_total: 0,
      };
    return {
      ...base,
      status: "fail",
      score: 0,
      description: summarise(definition, findings),
      fix: definition.fix,
      findings: kept,
      findings_total: findings.length,
    };
  });
};
