import { type CsvCell, csvLines } from "@scan/audit";
import {
  AiEngine,
  AppError,
  DEFAULT_SAMPLES_PER_PROMPT,
  offsetOf,
  type PageMeta,
  pageMeta,
  type RunListQuery,
  type RunMeasures,
  type SampleListQuery,
  type VisibilityRunView,
  type VisibilitySampleView,
} from "@scan/contract";
import type { Db, Prisma, VisibilityRun, VisibilitySample } from "@scan/db";
import { visibilitySampleJob } from "@scan/queue";
import { visibilityRuns } from "@scan/records";
import { type EngineId, rateView, type VisibilityBudgets, versusPrevious, wilsonInterval } from "@scan/visibility";
import type { Queue } from "bullmq";
import type { Logger } from "pino";
import type { AccountCaller } from "../access/authenticate";
import { siteNotFound } from "../sites";

type Owner = Pick<AccountCaller, "workspaceId" | "userId">;

export const runNotFound = (id: string) =>
  new AppError(
    "not_found",
    `No visibility run with id ${id}`,
    "Use a run id from GET /api/v1/sites/{id}/visibility/runs.",
  );

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];
const TOP = 10;

type Mention = { entity: string; kind: "brand" | "competitor"; position: number };
type CitationRow = { url: string; domain: string; position: number; title: string | null };
const mentionsOf = (sample: Pick<VisibilitySample, "mentions">): Mention[] =>
  Array.isArray(sample.mentions) ? (sample.mentions as unknown as Mention[]) : [];
const citationsOf = (sample: Pick<VisibilitySample, "citations">): CitationRow[] =>
  Array.isArray(sample.citations) ? (sample.citations as unknown as CitationRow[]) : [];

type Answered = Pick<
  VisibilitySample,
  "promptId" | "promptText" | "engine" | "brandMentioned" | "brandCited" | "mentions" | "citations"
>;

const ratesOf = (samples: Answered[]) => {
  const positions = samples.flatMap((s) =>
    mentionsOf(s)
      .filter((m) => m.kind === "brand")
      .map((m) => m.position),
  );
  return {
    samples: samples.length,
    mention_rate: rateView(wilsonInterval(samples.filter((s) => s.brandMentioned).length, samples.length)),
    citation_rate: rateView(wilsonInterval(samples.filter((s) => s.brandCited).length, samples.length)),
    average_position: positions.length === 0 ? null : positions.reduce((a, b) => a + b, 0) / positions.length,
  };
};

/** Each company's answers naming it over all namings of the brand and its competitors (as `shareOfVoice`). */
const voiceOf = (samples: Answered[], names: string[]) => {
  const counts = names.map((name) => ({
    name,
    mentions: samples.filter((s) => mentionsOf(s).some((m) => m.entity === name)).length,
  }));
  const total = counts.reduce((sum, row) => sum + row.mentions, 0);
  return counts.map((row) => ({ ...row, share: total === 0 ? null : row.mentions / total }));
};

const topOf = (keys: string[]) => {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts.entries()]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, TOP);
};

const citedOf = (samples: Answered[]) => {
  const cited = samples.flatMap((s) => citationsOf(s));
  return { top_domains: topOf(cited.map((c) => c.domain)), top_pages: topOf(cited.map((c) => c.url)) };
};

const toRunView = (run: VisibilityRun, measures?: RunMeasures): VisibilityRunView => ({
  id: run.id,
  site_id: run.siteId,
  status: run.status,
  engines: run.engines,
  samples_per_prompt: run.samplesPerPrompt,
  progress: { planned: run.planned, done: run.done, failed: run.failed },
  tokens: run.tokens,
  cost_usd: run.costUsd,
  error: run.errorCode ? { code: run.errorCode, message: run.errorMessage ?? "" } : null,
  created_at: run.createdAt.toISOString(),
  started_at: run.startedAt?.toISOString() ?? null,
  completed_at: run.completedAt?.toISOString() ?? null,
  ...(measures ? { measures } : {}),
});

const toSampleView = (sample: VisibilitySample): VisibilitySampleView => ({
  id: sample.id,
  run_id: sample.runId,
  prompt_id: sample.promptId,
  prompt: sample.promptText,
  engine: sample.engine,
  sample_index: sample.sampleIndex,
  status: sample.status,
  attempts: sample.attempts,
  answer: sample.answerText,
  model: sample.model,
  citations: citationsOf(sample),
  search_queries: sample.searchQueries,
  mentions: mentionsOf(sample),
  brand_mentioned: sample.brandMentioned,
  brand_cited: sample.brandCited,
  cited_page: sample.citedPage,
  tokens: sample.inputTokens + sample.outputTokens,
  cost_usd: sample.costUsd,
  error_kind: sample.errorKind,
  finished_at: sample.finishedAt?.toISOString() ?? null,
});

export type RunService = {
  /** Starts a run of every prompt of the site × its enabled engines that have a key × its samples per prompt. */
  start: (
    owner: Owner & { plan: keyof VisibilityBudgets },
    siteId: string,
    requestId: string,
  ) => Promise<VisibilityRunView>;
  /** The site's runs, newest first. */
  list: (
    workspaceId: string,
    siteId: string,
    query: RunListQuery,
  ) => Promise<{ runs: VisibilityRunView[]; meta: PageMeta }>;
  /** One run with its progress and measures. */
  get: (workspaceId: string, runId: string) => Promise<VisibilityRunView>;
  /** The run's samples, in prompt, engine and index order. */
  samples: (
    workspaceId: string,
    runId: string,
    query: SampleListQuery,
  ) => Promise<{ samples: VisibilitySampleView[]; meta: PageMeta }>;
  /** Every sample the filters keep (page and limit aside) as CSV, a line per sample as they are read. */
  samplesAsCsv: (workspaceId: string, runId: string, query: SampleListQuery) => Promise<AsyncIterable<string>>;
  /** Cancels a run under way; samples being asked finish and are kept. */
  cancel: (workspaceId: string, runId: string) => Promise<VisibilityRunView>;
};

const SAMPLE_ORDER: Prisma.VisibilitySampleOrderByWithRelationInput[] = [
  { promptText: "asc" },
  { promptId: "asc" },
  { engine: "asc" },
  { sampleIndex: "asc" },
];

/** The columns of a run's samples as CSV (docs/visibility.md, Samples as CSV). */
export const SAMPLE_CSV_COLUMNS = [
  "prompt",
  "engine",
  "sample_index",
  "status",
  "brand_mentioned",
  "brand_cited",
  "cited_page",
  "citations",
  "search_queries",
  "mentions",
  "model",
  "tokens",
  "cost_usd",
  "answered_at",
] as const;

/** samples read at a time for the CSV file */
const CSV_BATCH = 500;

const sampleCsvRow = (sample: VisibilitySampleView): CsvCell[] => [
  sample.prompt,
  sample.engine,
  sample.sample_index,
  sample.status,
  sample.brand_mentioned,
  sample.brand_cited,
  sample.cited_page,
  // URLs hold no space once normalised; queries and names may, so they are split by " | "
  sample.citations.map((citation) => citation.url).join(" "),
  sample.search_queries.join(" | "),
  sample.mentions.map((mention) => mention.entity).join(" | "),
  sample.model,
  sample.tokens,
  sample.cost_usd,
  sample.status === "completed" ? sample.finished_at : null,
];

export const createRunService = ({
  db,
  queue,
  operatorEngines,
  budgets,
  samplesAhead,
  log,
}: {
  db: Db;
  queue: Pick<Queue, "addBulk">;
  /** the engines the service has its own key for */
  operatorEngines: ReadonlySet<EngineId>;
  budgets: VisibilityBudgets;
  /** the run's sample jobs on the queue at a time (the rest are queued as samples end) */
  samplesAhead: number;
  log: Logger;
}): RunService => {
  const sampleFilter = (runId: string, query: SampleListQuery): Prisma.VisibilitySampleWhereInput => ({
    runId,
    ...(query.engine ? { engine: query.engine } : {}),
    ...(query.prompt_id ? { promptId: query.prompt_id } : {}),
    ...(query.status ? { status: query.status } : {}),
  });

  const ownRun = async (workspaceId: string, runId: string) => {
    const run = await db.visibilityRun.findFirst({ where: { id: runId, workspaceId } });
    if (!run) throw runNotFound(runId);
    return run;
  };

  const measuresOf = async (run: VisibilityRun): Promise<RunMeasures> => {
    const select = {
      promptId: true,
      promptText: true,
      engine: true,
      brandMentioned: true,
      brandCited: true,
      mentions: true,
      citations: true,
    } as const;
    const [answered, site, competitors, previous] = await Promise.all([
      db.visibilitySample.findMany({ where: { runId: run.id, status: "completed" }, select }),
      db.site.findUnique({ where: { id: run.siteId }, select: { name: true, visibilityProfile: true } }),
      db.competitor.findMany({ where: { siteId: run.siteId }, select: { name: true }, orderBy: { name: "asc" } }),
      db.visibilityRun.findFirst({
        where: { siteId: run.siteId, status: "completed", createdAt: { lt: run.createdAt }, id: { not: run.id } },
        orderBy: NEWEST_FIRST,
        select: { id: true },
      }),
    ]);
    const brand = site?.visibilityProfile?.brandNames[0] ?? site?.name ?? "";
    const names = [brand, ...competitors.map((c) => c.name)];
    const byEngine = (engine: string, rows: Answered[]) => rows.filter((s) => s.engine === engine);
    const prompts = [...new Map(answered.map((s) => [s.promptId, s.promptText])).entries()];
    const earlier = previous
      ? await db.visibilitySample.findMany({ where: { runId: previous.id, status: "completed" }, select })
      : [];
    return {
      engines: run.engines.map((engine) => {
        const rows = byEngine(engine, answered);
        return { engine, ...ratesOf(rows), share_of_voice: voiceOf(rows, names), ...citedOf(rows) };
      }),
      prompts: prompts.flatMap(([promptId, text]) =>
        run.engines.map((engine) => ({
          prompt_id: promptId,
          text,
          engine,
          ...ratesOf(byEngine(engine, answered).filter((s) => s.promptId === promptId)),
        })),
      ),
      share_of_voice: voiceOf(answered, names),
      ...citedOf(answered),
      versus_previous: previous
        ? {
            run_id: previous.id,
            engines: versusPrevious(run.engines, earlier, answered),
          }
        : null,
    };
  };

  const start: RunService["start"] = async (owner, siteId, requestId) => {
    const site = await db.site.findFirst({
      where: { id: siteId, workspaceId: owner.workspaceId },
      select: { id: true, visibilityProfile: true },
    });
    if (!site) throw siteNotFound(siteId);
    const prompts = await db.visibilityPrompt.findMany({
      where: { siteId, workspaceId: owner.workspaceId },
      select: { id: true, text: true, locale: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    if (prompts.length === 0)
      throw new AppError(
        "invalid_request",
        "The site tracks no prompts: a run would ask nothing",
        "Add prompts first: POST /api/v1/sites/{id}/prompts, or import a CSV.",
      );
    const enabled = site.visibilityProfile?.engines ?? [...AiEngine.options];
    const own = await db.engineKey.findMany({ where: { workspaceId: owner.workspaceId }, select: { engine: true } });
    const keyed = new Set<string>([...operatorEngines, ...own.map((k) => k.engine)]);
    const engines = enabled.filter((engine) => keyed.has(engine));
    if (engines.length === 0)
      throw new AppError(
        "invalid_request",
        `No key for any of the site's engines (${enabled.join(", ")})`,
        "Set the workspace's key for an engine: PUT /api/v1/workspaces/{id}/engine-keys/{engine}.",
      );
    const cap = budgets[owner.plan];
    const spent = await visibilityRuns.spentSince(db, owner.workspaceId, monthStart(new Date()));
    if (cap <= 0 || spent >= cap)
      throw new AppError(
        "plan_limit",
        cap <= 0
          ? "The workspace's plan has no visibility budget"
          : `The workspace's visibility budget for this month ($${cap}) is spent`,
        cap <= 0 ? "Upgrade the plan to run visibility measurements." : "Runs start again next month.",
      );
    const perPrompt = site.visibilityProfile?.samplesPerPrompt ?? DEFAULT_SAMPLES_PER_PROMPT;
    const planned = prompts.flatMap((prompt) =>
      engines.flatMap((engine) =>
        Array.from({ length: perPrompt }, (_, sampleIndex) => ({
          promptId: prompt.id,
          promptText: prompt.text,
          promptLocale: prompt.locale,
          engine,
          sampleIndex,
        })),
      ),
    );
    let stored: Awaited<ReturnType<typeof visibilityRuns.insertRun>>;
    try {
      stored = await visibilityRuns.insertRun(
        db,
        {
          workspaceId: owner.workspaceId,
          userId: owner.userId,
          siteId,
          engines,
          samplesPerPrompt: perPrompt,
          requestId,
        },
        planned,
        samplesAhead,
      );
    } catch (error) {
      if ((error as { code?: unknown }).code !== "P2002") throw error;
      throw new AppError(
        "conflict",
        "A visibility run of this site is under way",
        "Wait for it to end (GET /api/v1/sites/{id}/visibility/runs), or cancel it (DELETE /api/v1/visibility/runs/{id}).",
      );
    }
    const { run, queueNow } = stored;
    try {
      await queue.addBulk(queueNow.map((sampleId) => visibilitySampleJob({ runId: run.id, sampleId })));
    } catch (error) {
      // the rows are the truth: the sweep queues the samples from them once the queue is back
      log.warn({ runId: run.id, err: (error as Error).message }, "visibility run stored, its samples not queued yet");
    }
    return toRunView(run);
  };

  return {
    start,
    list: async (workspaceId, siteId, query) => {
      const site = await db.site.findFirst({ where: { id: siteId, workspaceId }, select: { id: true } });
      if (!site) throw siteNotFound(siteId);
      const where = { workspaceId, siteId };
      const [rows, total] = await Promise.all([
        db.visibilityRun.findMany({ where, orderBy: NEWEST_FIRST, skip: offsetOf(query), take: query.limit }),
        db.visibilityRun.count({ where }),
      ]);
      return { runs: rows.map((run) => toRunView(run)), meta: pageMeta(query, total) };
    },
    get: async (workspaceId, runId) => {
      const run = await ownRun(workspaceId, runId);
      return toRunView(run, await measuresOf(run));
    },
    samples: async (workspaceId, runId, query) => {
      await ownRun(workspaceId, runId);
      const where = sampleFilter(runId, query);
      const [rows, total] = await Promise.all([
        db.visibilitySample.findMany({ where, orderBy: SAMPLE_ORDER, skip: offsetOf(query), take: query.limit }),
        db.visibilitySample.count({ where }),
      ]);
      return { samples: rows.map(toSampleView), meta: pageMeta(query, total) };
    },
    samplesAsCsv: async (workspaceId, runId, query) => {
      await ownRun(workspaceId, runId);
      const where = sampleFilter(runId, query);
      async function* rows(): AsyncGenerator<CsvCell[]> {
        // a few hundred at a time: a run's file is never held whole
        for (let skip = 0; ; skip += CSV_BATCH) {
          const batch = await db.visibilitySample.findMany({
            where,
            orderBy: [...SAMPLE_ORDER, { id: "asc" }],
            skip,
            take: CSV_BATCH,
          });
          for (const sample of batch) yield sampleCsvRow(toSampleView(sample));
          if (batch.length < CSV_BATCH) return;
        }
      }
      return csvLines(SAMPLE_CSV_COLUMNS, rows());
    },
    cancel: async (workspaceId, runId) => {
      await ownRun(workspaceId, runId);
      await visibilityRuns.cancelRun(db, runId);
      return toRunView(await ownRun(workspaceId, runId));
    },
  };
};

/** The first instant of the current calendar month, UTC: a workspace's spend is counted from it. */
export const monthStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
