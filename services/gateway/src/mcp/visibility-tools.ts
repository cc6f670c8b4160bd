import type {
  AddCompetitorToolInput,
  AddPromptToolInput,
  CitedPagesView,
  CompetitorView,
  DeletedRecord,
  ListToolInput,
  PromptView,
  RemoveCompetitorToolInput,
  RemovePromptToolInput,
  RunToolInput,
  SamplesToolInput,
  SiteToolInput,
  VisibilityProfileView,
  VisibilityRunView,
  VisibilitySampleView,
} from "@scan/contract";
import type { z } from "zod";
import { ownerOf } from "../access/authenticate";
import type { ToolAnswer, ToolContext } from "../scans";
import type { CitedPagesService, CompetitorService, ProfileService, PromptService, RunService } from "../visibility";

type Page<K extends string, T> = { [key in K]: T[] } & {
  page: number;
  limit: number;
  total: number;
  has_more: boolean;
};

export type VisibilityTools = {
  /** aeo_visibility_profile: the site's profile as GET /api/v1/sites/{id}/visibility answers it. */
  profile: (input: z.output<typeof SiteToolInput>, context: ToolContext) => Promise<ToolAnswer<VisibilityProfileView>>;
  /** aeo_list_prompts: a page of the site's prompts, newest first. */
  listPrompts: (
    input: z.output<typeof ListToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<Page<"prompts", PromptView>>>;
  /** aeo_add_prompt: tracks a prompt for the site. */
  addPrompt: (input: z.output<typeof AddPromptToolInput>, context: ToolContext) => Promise<ToolAnswer<PromptView>>;
  /** aeo_remove_prompt: stops tracking one of the site's prompts. */
  removePrompt: (
    input: z.output<typeof RemovePromptToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<DeletedRecord>>;
  /** aeo_list_competitors: a page of the site's competitors, newest first. */
  listCompetitors: (
    input: z.output<typeof ListToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<Page<"competitors", CompetitorView>>>;
  /** aeo_add_competitor: measures the site against a competitor, within the plan's number. */
  addCompetitor: (
    input: z.output<typeof AddCompetitorToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<CompetitorView>>;
  /** aeo_remove_competitor: stops measuring the site against one of its competitors. */
  removeCompetitor: (
    input: z.output<typeof RemoveCompetitorToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<DeletedRecord>>;
  /** aeo_visibility_run_start: starts a run of the site's prompts, as POST /api/v1/sites/{id}/visibility/runs. */
  startRun: (input: z.output<typeof SiteToolInput>, context: ToolContext) => Promise<ToolAnswer<VisibilityRunView>>;
  /** aeo_visibility_run: a run's status, progress and measures. */
  run: (input: z.output<typeof RunToolInput>, context: ToolContext) => Promise<ToolAnswer<VisibilityRunView>>;
  /** aeo_visibility_samples: a page of a run's answers with their citations. */
  samples: (
    input: z.output<typeof SamplesToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<Page<"samples", VisibilitySampleView>>>;
  /** aeo_visibility_cited_pages_scan: sends a completed run's cited pages to be scanned, as POST …/cited-pages. */
  scanCitedPages: (input: z.output<typeof RunToolInput>, context: ToolContext) => Promise<ToolAnswer<CitedPagesView>>;
  /** aeo_visibility_cited_pages: a run's cited pages side by side, as GET …/cited-pages. */
  citedPages: (input: z.output<typeof RunToolInput>, context: ToolContext) => Promise<ToolAnswer<CitedPagesView>>;
};

const pageOf = (input: z.output<typeof ListToolInput>) => ({
  page: input.page ?? 1,
  limit: input.limit ?? 20,
  q: undefined,
  topic: undefined,
  tag: undefined,
  locale: undefined,
});

const promptLine = (prompt: PromptView) =>
  `- ${prompt.text}${prompt.topic ? ` [${prompt.topic}]` : ""}${prompt.tags.length > 0 ? ` #${prompt.tags.join(" #")}` : ""}${prompt.locale ? ` (${prompt.locale})` : ""} (id ${prompt.id})`;

const competitorLine = (competitor: CompetitorView) =>
  `- ${competitor.name}${competitor.aliases.length > 0 ? ` (also ${competitor.aliases.join(", ")})` : ""}${competitor.domains.length > 0 ? `: ${competitor.domains.join(", ")}` : ""} (id ${competitor.id})`;

const percentOf = (rate: number | null) => (rate === null ? "n/a" : `${Math.round(rate * 100)} %`);
const intervalOf = (rate: { rate: number | null; low: number; high: number; n: number }) =>
  `${percentOf(rate.rate)} (95 % ${percentOf(rate.low)}–${percentOf(rate.high)}, n=${rate.n})`;

const runLines = (run: VisibilityRunView) => [
  `Visibility run ${run.id} of site ${run.site_id}: ${run.status}${run.error ? ` (${run.error.code}: ${run.error.message})` : ""}.`,
  `${run.progress.done} of ${run.progress.planned} samples answered, ${run.progress.failed} failed; ${run.tokens} tokens, $${run.cost_usd.toFixed(4)}.`,
  ...(run.measures?.engines ?? []).map(
    (engine) =>
      `- ${engine.engine}: mentioned ${intervalOf(engine.mention_rate)}, cited ${intervalOf(engine.citation_rate)}`,
  ),
];

const sampleLine = (sample: VisibilitySampleView) => {
  const head = `- [${sample.engine} #${sample.sample_index}] "${sample.prompt}": ${sample.status}`;
  if (sample.status !== "completed") return `${head}${sample.error_kind ? ` (${sample.error_kind})` : ""}`;
  const brand = `${sample.brand_mentioned ? "brand named" : "brand not named"}, ${sample.brand_cited ? `cited${sample.cited_page ? ` (${sample.cited_page})` : ""}` : "not cited"}`;
  const citations = sample.citations.map((c) => c.url).join(" ");
  return `${head}; ${brand}; citations: ${citations || "none"}`;
};

const scoresOf = (page: CitedPagesView["pages"][number]) =>
  page.scan?.status === "completed"
    ? `overall ${page.scan.overall ?? "n/a"} (SEO ${page.scan.seo ?? "n/a"}, AEO ${page.scan.aeo ?? "n/a"}, GEO ${page.scan.geo ?? "n/a"})`
    : page.state === "refused"
      ? `refused: ${page.refused}`
      : page.state;
const citedPageLines = (view: CitedPagesView) => [
  `Cited pages of visibility run ${view.run_id}: ${view.counts.pages} pages, ${view.counts.completed} scanned, ${view.counts.pending} pending, ${view.counts.failed} failed, ${view.counts.refused} refused${view.started ? "" : " (not sent to be scanned yet: aeo_visibility_cited_pages_scan)"}.`,
  ...view.prompts.flatMap((prompt) => [
    `"${prompt.prompt}":`,
    ...prompt.brand_pages.map((page) => `- yours ${page.url}: ${scoresOf(page)}`),
    ...prompt.competitor_pages.map(
      (page) =>
        `- cited instead ${page.url}${page.competitor ? ` (${page.competitor})` : ""}: ${scoresOf(page)}${
          page.lacks && page.lacks.length > 0
            ? `; passes what ${page.compared_with} lacks: ${page.lacks.map((gap) => gap.title).join("; ")}`
            : ""
        }`,
    ),
  ]),
];

/**
 * The visibility tools over the same services as the REST endpoints: the key's workspace, the
 * same validation, the plan's number of competitors.
 */
export const createVisibilityTools = ({
  profiles,
  prompts,
  competitors,
  runs,
  citedPages,
}: {
  profiles: ProfileService;
  prompts: PromptService;
  competitors: CompetitorService;
  runs: RunService;
  citedPages: CitedPagesService;
}): VisibilityTools => ({
  profile: async ({ site_id }, { caller }) => {
    const profile = await profiles.get(caller.workspaceId, site_id.toLowerCase());
    const lines = [
      `Visibility profile of site ${profile.site_id}${profile.configured ? "" : " (not set yet: the defaults drawn from the site)"}.`,
      `Brand: ${profile.brand_names.join(", ")}; domains: ${profile.brand_domains.join(", ") || "none"}.`,
      `${profile.samples_per_prompt} samples of each prompt on ${profile.engines.join(", ")}.`,
      `${profile.prompt_count} prompts, ${profile.competitor_count} competitors.`,
    ];
    return { data: profile, summary: lines.join("\n") };
  },
  listPrompts: async (input, { caller }) => {
    const { prompts: items, meta } = await prompts.list(caller.workspaceId, input.site_id.toLowerCase(), pageOf(input));
    const data = { prompts: items, page: meta.page, limit: meta.limit, total: meta.total, has_more: meta.hasMore };
    const summary = [`${meta.total} prompts tracked; page ${meta.page}:`, ...items.map(promptLine)].join("\n");
    return { data, summary };
  },
  addPrompt: async ({ site_id, ...input }, { caller }) => {
    const prompt = await prompts.create(ownerOf(caller), site_id.toLowerCase(), input);
    return { data: prompt, summary: `Tracking the prompt "${prompt.text}" (id ${prompt.id}).` };
  },
  removePrompt: async ({ site_id, prompt_id }, { caller }) => {
    const removed = await prompts.remove(caller.workspaceId, site_id.toLowerCase(), prompt_id.toLowerCase());
    return { data: removed, summary: `Stopped tracking prompt ${removed.id}.` };
  },
  listCompetitors: async (input, { caller }) => {
    const { competitors: items, meta } = await competitors.list(
      caller.workspaceId,
      input.site_id.toLowerCase(),
      pageOf(input),
    );
    const data = { competitors: items, page: meta.page, limit: meta.limit, total: meta.total, has_more: meta.hasMore };
    const summary = [`${meta.total} competitors; page ${meta.page}:`, ...items.map(competitorLine)].join("\n");
    return { data, summary };
  },
  addCompetitor: async ({ site_id, ...input }, { caller }) => {
    const competitor = await competitors.create({ ...ownerOf(caller), plan: caller.plan }, site_id.toLowerCase(), {
      name: input.name,
      aliases: input.aliases ?? [],
      domains: input.domains ?? [],
    });
    return { data: competitor, summary: `Measuring the site against ${competitor.name} (id ${competitor.id}).` };
  },
  removeCompetitor: async ({ site_id, competitor_id }, { caller }) => {
    const removed = await competitors.remove(caller.workspaceId, site_id.toLowerCase(), competitor_id.toLowerCase());
    return { data: removed, summary: `Stopped measuring against competitor ${removed.id}.` };
  },
  startRun: async ({ site_id }, { caller, requestId }) => {
    const run = await runs.start(caller, site_id.toLowerCase(), requestId);
    const summary = [
      ...runLines(run),
      `Follow it with aeo_visibility_run (run_id ${run.id}); its answers with aeo_visibility_samples.`,
    ].join("\n");
    return { data: run, summary };
  },
  run: async ({ run_id }, { caller }) => {
    const run = await runs.get(caller.workspaceId, run_id.toLowerCase());
    return { data: run, summary: runLines(run).join("\n") };
  },
  samples: async ({ run_id, engine, prompt_id, page, limit }, { caller }) => {
    const { samples: items, meta } = await runs.samples(caller.workspaceId, run_id.toLowerCase(), {
      page: page ?? 1,
      limit: limit ?? 20,
      engine,
      prompt_id: prompt_id?.toLowerCase(),
      status: undefined,
    });
    const data = { samples: items, page: meta.page, limit: meta.limit, total: meta.total, has_more: meta.hasMore };
    const summary = [`${meta.total} samples; page ${meta.page}:`, ...items.map(sampleLine)].join("\n");
    return { data, summary };
  },
  scanCitedPages: async ({ run_id }, { caller, requestId }) => {
    const { view } = await citedPages.start(caller, run_id.toLowerCase(), requestId);
    return { data: view, summary: citedPageLines(view).join("\n") };
  },
  citedPages: async ({ run_id }, { caller }) => {
    const view = await citedPages.read(caller.workspaceId, run_id.toLowerCase());
    return { data: view, summary: citedPageLines(view).join("\n") };
  },
});
