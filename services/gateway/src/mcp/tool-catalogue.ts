import {
  AddCompetitorToolInput,
  AddPromptToolInput,
  AuditToolInput,
  AuditView,
  CitedPagesView,
  CompetitorPage,
  CompetitorView,
  DeletedRecord,
  ImportKeywordsToolInput,
  KeywordImportResult,
  ListToolInput,
  PromptPage,
  PromptView,
  RemoveCompetitorToolInput,
  RemovePromptToolInput,
  RunToolInput,
  SamplePage,
  SamplesToolInput,
  ScanResult,
  ScanToolInput,
  ScoreSummary,
  ScoreToolInput,
  SiteToolInput,
  VisibilityProfileView,
  VisibilityRunView,
} from "@scan/contract";
import type { GeneratorTools } from "../generators";
import { FixInput, FixResult, GenerateInput, GenerateResult } from "../generators";
import type { PageTools } from "../scans";
import type { AuditTools } from "./audit-tools";
import type { KeywordTools } from "./keyword-tools";
import { defineTool, type ToolDefinition } from "./tool-server";
import type { VisibilityTools } from "./visibility-tools";

export type Tools = {
  pages: PageTools;
  generators: GeneratorTools;
  audits: AuditTools;
  visibility: VisibilityTools;
  keywords: KeywordTools;
};

/**
 * The tools the MCP server lists: those of docs/spec/public-scanning-api.md §4.8 in its order,
 * then the site audit, the visibility configuration and its runs, and the keyword import.
 */
export const toolCatalogue = ({ pages, generators, audits, visibility, keywords }: Tools): ToolDefinition[] => [
  defineTool({
    name: "aeo_scan",
    title: "Scan a page for SEO, AEO and GEO",
    description:
      "Scans one web page (full: all 57 checks, about 25 s; quick: the 20 core checks, about 10 s) and returns " +
      "its grade (A+ to F), scores for SEO, AEO and GEO, the overall score, issue counts, and every check's " +
      "verdict with a fix. The scan is stored; its id reads it again at GET /api/v1/scan/{id}.",
    input: ScanToolInput,
    output: ScanResult,
    reaches: ({ url }) => ({ urls: [url], writes: true }),
    run: (args, context) => pages.scan(args, context),
  }),
  defineTool({
    name: "aeo_score",
    title: "Score a page quickly",
    description:
      "A quick scan of one web page (about 10 s): its SEO, AEO and GEO scores, the overall score and grade, " +
      "and the three worst problems with how to fix each.",
    input: ScoreToolInput,
    output: ScoreSummary,
    reaches: ({ url }) => ({ urls: [url], writes: true }),
    run: (args, context) => pages.score(args, context),
  }),
  defineTool({
    name: "aeo_fix",
    title: "Generate llms.txt, JSON-LD, robots.txt, ai-catalog.json and WebMCP form annotations for a page",
    description:
      "Runs a full scan of one web page and generates files ready to paste, every value taken from the page: " +
      "an llms.txt (llmstxt.org format), a JSON-LD block (Organization, WebSite, WebPage, and Article, FAQPage, " +
      "BreadcrumbList where the page supports them) and a robots.txt that keeps the site's rules, allows the AI " +
      'search crawlers and names the sitemap, an ai-catalog.json listing the site\'s own files (with its <link rel="ai-catalog">) ' +
      "and WebMCP annotations for forms that have none, from their labels. `issues` (check ids) restricts it to the " +
      "files that fix them.",
    input: FixInput,
    output: FixResult,
    reaches: ({ url }) => ({ urls: [url], writes: true }),
    run: (args, context) => generators.fix(args, context),
  }),
  defineTool({
    name: "aeo_generate",
    title: "Draft FAQ, blog or product content from a page",
    description:
      "Scans one web page and drafts content from it: an FAQ (questions and answers), a blog outline, or a product " +
      "description, optionally kept to a topic. Extractive (the page's own sentences) unless the server has a " +
      "language model configured; `method` in the answer says which.",
    input: GenerateInput,
    output: GenerateResult,
    reaches: ({ url }) => ({ urls: [url], writes: true }),
    run: (args, context) => generators.generate(args, context),
  }),
  defineTool({
    name: "aeo_audit_site",
    title: "Audit a whole site",
    description:
      "Starts an audit of a whole site with `url` (its sitemaps and links crawled, every page scanned, then site " +
      "checks: duplicate titles, broken links, bad canonicals, sitemap problems, redirect chains, hreflang and " +
      "llms.txt) and answers at once with the audit's id. Call again with `audit_id` to follow its progress; once " +
      "completed the answer holds the site report: site grade and scores, failing site checks with their pages, " +
      "each page check's pass rate, the worst pages.",
    input: AuditToolInput,
    output: AuditView,
    // with url it starts an audit (and records the site); with audit_id it only reads
    reaches: ({ url, audit_id }) => ({
      urls: url === undefined ? [] : [url],
      auditId: audit_id,
      writes: url !== undefined,
    }),
    run: (args, context) => audits.auditSite(args, context),
  }),
  defineTool({
    name: "aeo_visibility_profile",
    title: "Read a site's AI-visibility profile",
    description:
      "The profile a site's AI visibility is measured with: the brand's names and domains, samples of each prompt, " +
      "the engines asked, the counts of its prompts and competitors. `site_id` is a site id from GET /api/v1/sites.",
    input: SiteToolInput,
    output: VisibilityProfileView,
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: false }),
    run: (args, context) => visibility.profile(args, context),
  }),
  defineTool({
    name: "aeo_list_prompts",
    title: "List a site's tracked prompts",
    description: "A page of the prompts tracked for a site (what the AI engines are asked), newest first.",
    input: ListToolInput,
    output: PromptPage,
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: false }),
    run: (args, context) => visibility.listPrompts(args, context),
  }),
  defineTool({
    name: "aeo_add_prompt",
    title: "Track a prompt for a site",
    description:
      "Adds a prompt (at most 500 characters) to what the AI engines are asked about a site, with an optional topic, " +
      "tags and locale (BCP 47, such as en-GB). A wording the site tracks already (ignoring case, spacing and closing " +
      "punctuation) is refused as a conflict.",
    input: AddPromptToolInput,
    output: PromptView,
    effect: "adds",
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: true }),
    run: (args, context) => visibility.addPrompt(args, context),
  }),
  defineTool({
    name: "aeo_remove_prompt",
    title: "Stop tracking a site's prompt",
    description: "Removes one of the site's prompts by its id (from aeo_list_prompts).",
    input: RemovePromptToolInput,
    output: DeletedRecord,
    effect: "removes",
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: true }),
    run: (args, context) => visibility.removePrompt(args, context),
  }),
  defineTool({
    name: "aeo_list_competitors",
    title: "List a site's competitors",
    description: "A page of the brands a site is measured against in AI answers, newest first.",
    input: ListToolInput,
    output: CompetitorPage,
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: false }),
    run: (args, context) => visibility.listCompetitors(args, context),
  }),
  defineTool({
    name: "aeo_add_competitor",
    title: "Measure a site against a competitor",
    description:
      "Adds a competitor (its name, other names it goes by, its domains) to a site, within the plan's number of " +
      "competitors per site. Private or reserved hosts are refused.",
    input: AddCompetitorToolInput,
    output: CompetitorView,
    effect: "adds",
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: true }),
    run: (args, context) => visibility.addCompetitor(args, context),
  }),
  defineTool({
    name: "aeo_remove_competitor",
    title: "Stop measuring a site against a competitor",
    description: "Removes one of the site's competitors by its id (from aeo_list_competitors).",
    input: RemoveCompetitorToolInput,
    output: DeletedRecord,
    effect: "removes",
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: true }),
    run: (args, context) => visibility.removeCompetitor(args, context),
  }),
  defineTool({
    name: "aeo_visibility_run_start",
    title: "Ask the AI engines a site's prompts",
    description:
      "Starts a visibility run of a site: every tracked prompt asked of each engine of its profile, samples_per_prompt " +
      "times, within the workspace's monthly budget. Answers at once with the run (queued) and its id; follow it " +
      "with aeo_visibility_run. Refused while a run of the site is under way, or when it tracks no prompts.",
    input: SiteToolInput,
    output: VisibilityRunView,
    effect: "adds",
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: true }),
    run: (args, context) => visibility.startRun(args, context),
  }),
  defineTool({
    name: "aeo_visibility_run",
    title: "Read a visibility run",
    description:
      "A visibility run's status, progress (samples planned, answered, failed), spend and measures: per engine the " +
      "brand's mention and citation rates with their 95 % Wilson intervals, share of voice, the most cited domains and " +
      "pages, and the change against the site's previous run (Fisher's exact test).",
    input: RunToolInput,
    output: VisibilityRunView,
    reaches: ({ run_id }) => ({ urls: [], runId: run_id, writes: false }),
    run: (args, context) => visibility.run(args, context),
  }),
  defineTool({
    name: "aeo_visibility_samples",
    title: "Read a visibility run's answers",
    description:
      "A page of a run's answers in prompt, engine and index order, with their citations, search queries, the " +
      "companies named, whether the brand was named and cited and which page. engine and prompt_id filter.",
    input: SamplesToolInput,
    output: SamplePage,
    reaches: ({ run_id }) => ({ urls: [], runId: run_id, writes: false }),
    run: (args, context) => visibility.samples(args, context),
  }),
  defineTool({
    name: "aeo_visibility_cited_pages_scan",
    title: "Scan the pages a visibility run's answers cited",
    description:
      "Sends a completed run's cited pages to be scanned with the service's checks: the brand's most cited pages and " +
      "the most cited pages of answers that cited none of the brand's, each through the address policy (a refused " +
      "address is reported with its reason, never scanned) and the monthly scan quota; a recent scan of the same " +
      "address is taken instead of a new one. Once per run; read them with aeo_visibility_cited_pages.",
    input: RunToolInput,
    output: CitedPagesView,
    effect: "adds",
    reaches: ({ run_id }) => ({ urls: [], runId: run_id, writes: true }),
    run: (args, context) => visibility.scanCitedPages(args, context),
  }),
  defineTool({
    name: "aeo_visibility_cited_pages",
    title: "Compare a run's cited pages with the brand's",
    description:
      "A run's cited pages side by side, per prompt: the brand's cited pages and the competitor pages cited where the " +
      "brand's were not, each with its scan's state and scores, and per competitor page the checks it passes that the " +
      "brand's page fails (what a cited page has that yours lacks).",
    input: RunToolInput,
    output: CitedPagesView,
    reaches: ({ run_id }) => ({ urls: [], runId: run_id, writes: false }),
    run: (args, context) => visibility.citedPages(args, context),
  }),
  defineTool({
    name: "aeo_import_keywords",
    title: "Import a site's keywords from Search Console",
    description:
      "Imports the text of Search Console's performance export `Queries.csv` (header Top queries, Clicks, " +
      "Impressions, CTR, Position; at most 1,000 queries) into a site's tracked keywords, as " +
      "POST /api/v1/sites/{id}/keywords/import does: a new query is tracked with its average position, clicks and " +
      "impressions; a tracked one gets the new position and its trend. All or nothing: a row at fault refuses the " +
      "whole file, naming up to 10 rows, and nothing is stored.",
    input: ImportKeywordsToolInput,
    output: KeywordImportResult,
    effect: "adds",
    reaches: ({ site_id }) => ({ urls: [], siteId: site_id, writes: true }),
    run: (args, context) => keywords.importCsv(args, context),
  }),
];
