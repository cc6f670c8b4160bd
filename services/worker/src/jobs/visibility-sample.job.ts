import type { Db } from "@scan/db";
import { type SecretBox, SecretBoxError } from "@scan/platform";
import { VisibilitySamplePayload } from "@scan/queue";
import { visibilityRuns } from "@scan/records";
import {
  analyseAnswer,
  askEngine,
  costOf,
  type EngineAnswer,
  type EngineConfig,
  EngineError,
  type EngineErrorKind,
  type EngineId,
  type FollowRedirect,
  type OperatorEngine,
  pricesFor,
  resolveCitationRedirects,
} from "@scan/visibility";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";

type Plan = "free" | "starter" | "pro" | "agency";

export type VisibilitySampleDeps = {
  db: Db;
  /** opens the workspaces' sealed engine keys; null: only the operator's keys are used */
  box: SecretBox | null;
  /** per engine: the operator's key, address, model and prices */
  engines: Record<EngineId, OperatorEngine>;
  /** engine calls at once per engine in this process */
  perEngine: number;
  /** attempts at the engine per sample before a retryable error fails it */
  attempts: number;
  /** the first retry's delay; each further one doubles it */
  backoffMs: number;
  /** the monthly spend cap per workspace, by plan, in US dollars; null: none */
  budgetByPlan: Record<Plan, number | null>;
  /** the usage a sample is projected at for the budget, before it is asked: its ceiling */
  projectedUsage: { inputTokens: number; outputTokens: number; searchCalls: number };
  timeoutMs: number;
  /** the hosts of the engines' redirect links, and how one is followed to the page it cites */
  redirects: { hosts: readonly string[]; follow: FollowRedirect };
  /** written in the transaction that completes a run: its alerts when a rate changed */
  onRunCompleted?: visibilityRuns.OnRunCompleted;
  /** after that transaction: the run's alerts queued for delivery */
  queueAlerts?: (runId: string) => Promise<void>;
  /** queues a sample's job: the next of its run's window, once a sample has ended */
  queueSample: (payload: { runId: string; sampleId: string }) => Promise<void>;
  /**
   * Awaited before each of the sample's CPU and database steps (`claim`: reading and claiming it;
   * `store`: reading the answer and storing it or its failure; `queue`: queueing the window's next
   * sample): resolves once interactive scans no longer wait or run, or its bound has passed
   * (domain/scan-gate.ts). Not awaited around the engine's answer, which waits on the network.
   */
  giveWay?: (step: VisibilityStep) => Promise<void>;
  log: Logger;
};

/** The steps of a sample that give way to interactive scans. */
export type VisibilityStep = "claim" | "store" | "queue";

/** Errors worth asking again: the engine was busy, away, slow, or sent what it should not have. */
const RETRYABLE: readonly EngineErrorKind[] = ["rate_limited", "unavailable", "timeout", "malformed"];

/** A slot per engine in this process: a job that finds none waits on the queue, not in memory. */
const createSlots = (limit: number) => {
  const taken = new Map<string, number>();
  return {
    take: (engine: string): boolean => {
      const now = taken.get(engine) ?? 0;
      if (now >= limit) return false;
      taken.set(engine, now + 1);
      return true;
    },
    give: (engine: string) => taken.set(engine, Math.max(0, (taken.get(engine) ?? 1) - 1)),
  };
};

/** The first instant of the current calendar month, UTC: spend is counted from it. */
export const monthStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * One sample of a visibility run: its engine asked its prompt once and the answer stored. The row
 * is the truth: a sample already ended is not asked again, and its cost is counted from the rows.
 */
export const createVisibilitySampleJob = (deps: VisibilitySampleDeps) => {
  const { db, log } = deps;
  const giveWay = deps.giveWay ?? (async () => {});
  /**
   * A sample's end: the next sample of the run's window is queued, and the alerts stored with a
   * completion are queued. A next sample not queued (Redis away) is queued by the sweep from its row.
   */
  const ended = async (outcome: { runCompleted: boolean; runId?: string; next: string | null }) => {
    if (outcome.next && outcome.runId) {
      await giveWay("queue");
      const payload = { runId: outcome.runId, sampleId: outcome.next };
      await deps.queueSample(payload).catch((error: Error) => {
        log.warn({ ...payload, err: error.message }, "next visibility sample not queued; the sweep will queue it");
      });
    }
    if (outcome.runCompleted && outcome.runId) await deps.queueAlerts?.(outcome.runId);
  };
  const fail = async (sampleId: string, reason: { kind: string; message: string }) =>
    ended(await visibilityRuns.failSample(db, sampleId, reason, deps.onRunCompleted));
  const slots = createSlots(deps.perEngine);

  const configOf = async (workspaceId: string, engine: EngineId): Promise<EngineConfig | null> => {
    const operator = deps.engines[engine];
    const own = await db.engineKey.findUnique({
      where: { workspaceId_engine: { workspaceId, engine } },
      select: { keySealed: true, model: true },
    });
    const apiKey = own && deps.box ? deps.box.open(own.keySealed) : operator.apiKey;
    if (!apiKey) return null;
    return {
      engine,
      apiKey,
      model: own?.model ?? operator.model,
      timeoutMs: deps.timeoutMs,
      ...(operator.baseUrl ? { baseUrl: operator.baseUrl } : {}),
      ...(operator.prices ? { prices: operator.prices } : {}),
    };
  };

  const later = async (job: Job, token: string | undefined, waitMs: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + Math.max(1, Math.round(waitMs)), token);
    throw new DelayedError();
  };

  const store = async (
    sampleId: string,
    answer: EngineAnswer,
    brand: { names: string[]; domains: string[] },
    competitors: { name: string; aliases: string[]; domains: string[] }[],
  ) => {
    await giveWay("store");
    const analysis = analyseAnswer(answer, brand, competitors);
    const citedPage = analysis.brand.citedPages[0]?.url ?? null;
    const names = [analysis.brand, ...analysis.competitors];
    const outcome = await visibilityRuns.completeSample(
      db,
      sampleId,
      {
        answerText: answer.text,
        model: answer.model,
        citations: answer.citations.map((c) => ({
          url: c.url,
          domain: c.domain,
          position: c.position,
          title: c.title ?? null,
        })),
        searchQueries: answer.searchQueries,
        mentions: names
          .filter((entity) => entity.position !== null)
          .map((entity) => ({
            entity: entity.name,
            kind: entity === analysis.brand ? ("brand" as const) : ("competitor" as const),
            position: entity.position as number,
          }))
          .sort((a, b) => a.position - b.position),
        brandMentioned: analysis.brand.mentioned,
        brandCited: analysis.brand.cited,
        citedPage,
        trackUrl: citedPage ?? answer.citations[0]?.url ?? null,
        inputTokens: answer.usage.inputTokens,
        outputTokens: answer.usage.outputTokens,
        costUsd: answer.costUsd,
      },
      new Date(),
      deps.onRunCompleted,
    );
    await ended(outcome);
  };

  return async (job: Job, token?: string): Promise<void> => {
    const parsed = VisibilitySamplePayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError("not a visibility sample job");
    const { sampleId } = parsed.data;
    await giveWay("claim");
    const sample = await db.visibilitySample.findUnique({
      where: { id: sampleId },
      include: { run: { include: { workspace: { select: { plan: true } } } } },
    });
    if (!sample) return;
    const { run } = sample;
    if (sample.status !== "queued" && sample.status !== "running") return;
    if (run.status !== "queued" && run.status !== "running") {
      await visibilityRuns.cancelSample(db, sampleId);
      return;
    }
    let config: EngineConfig | null;
    try {
      config = await configOf(run.workspaceId, sample.engine);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      // a key sealed under another SITE_SECRETS_KEY: asking again would fail the same way
      await fail(sampleId, {
        kind: "auth",
        message: `the workspace's ${sample.engine} key cannot be opened by this service's SITE_SECRETS_KEY: set it again`,
      });
      return;
    }
    if (!config) {
      await fail(sampleId, {
        kind: "auth",
        message: `no key for ${sample.engine}: neither the workspace nor the service has one`,
      });
      return;
    }
    const prices = pricesFor(config);
    if (!prices) {
      await fail(sampleId, {
        kind: "bad_request",
        message: `the model ${config.model} has no known price: set its prices`,
      });
      return;
    }
    if (!slots.take(sample.engine)) return later(job, token, 500 + Math.random() * 500);
    // the engine slot bounds the calls at the engine: it is given back once the engine has
    // answered or failed, before the redirect links are followed and the answer is stored
    let held = true;
    const giveSlot = () => {
      if (!held) return;
      held = false;
      slots.give(sample.engine);
    };
    try {
      const claim = await visibilityRuns.claimSample(db, sampleId, {
        capUsd: deps.budgetByPlan[run.workspace.plan as Plan] ?? null,
        projectedUsd: costOf(deps.projectedUsage, prices),
        since: monthStart(new Date()),
      });
      if (!claim.claimed) {
        if (claim.reason === "budget_exhausted") {
          await visibilityRuns.failRun(db, run.id, {
            code: "budget_exhausted",
            message: `the workspace's monthly visibility budget would be passed (spent $${(claim.spentUsd ?? 0).toFixed(4)})`,
          });
          log.info({ runId: run.id }, "visibility run stopped: budget exhausted");
        }
        return;
      }
      const [site, profile, competitors] = await Promise.all([
        db.site.findUnique({ where: { id: run.siteId }, select: { name: true, domain: true } }),
        db.visibilityProfile.findUnique({ where: { siteId: run.siteId } }),
        db.competitor.findMany({ where: { siteId: run.siteId }, select: { name: true, aliases: true, domains: true } }),
      ]);
      const brand = {
        names: profile?.brandNames ?? (site ? [site.name] : []),
        domains: profile?.brandDomains ?? (site ? [site.domain] : []),
      };
      let answer: EngineAnswer;
      try {
        answer = await askEngine(config, {
          text: sample.promptText,
          ...(sample.promptLocale ? { locale: sample.promptLocale } : {}),
        });
      } catch (error) {
        giveSlot();
        if (!(error instanceof EngineError)) throw error;
        await giveWay("store");
        const attempts = claim.sample.attempts;
        if (RETRYABLE.includes(error.kind) && attempts < deps.attempts) {
          await visibilityRuns.releaseSample(db, sampleId);
          const wait =
            error.kind === "rate_limited" && error.retryAfterMs !== undefined
              ? error.retryAfterMs
              : deps.backoffMs * 2 ** (attempts - 1);
          log.info({ sampleId, engine: sample.engine, kind: error.kind, waitMs: wait }, "visibility sample waits");
          return await later(job, token, wait);
        }
        await fail(sampleId, { kind: error.kind, message: error.message });
        return;
      }
      giveSlot();
      // a page cited through an engine's redirect link is stored as that page
      answer = await resolveCitationRedirects(answer, deps.redirects.hosts, deps.redirects.follow);
      await store(sampleId, answer, brand, competitors);
    } finally {
      giveSlot();
    }
  };
};
