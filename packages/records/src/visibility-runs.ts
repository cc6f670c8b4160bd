import { randomUUID } from "node:crypto";
import type { Db, Prisma, VisibilityRun, VisibilitySample } from "@scan/db";
import * as citationTracks from "./citation-tracks";
import { transaction } from "./transaction";
import { allows, type DbClient, startStates, type Transitions } from "./transitions";

export type RunState = VisibilityRun["status"];
export type SampleState = VisibilitySample["status"];
type AiEngine = VisibilitySample["engine"];

export const RUN_STATES = [
  "queued",
  "running",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly RunState[];
/** A run in one of these has ended: no move takes it anywhere else. */
export const RUN_ENDED = ["completed", "failed", "cancelled"] as const satisfies readonly RunState[];
/** A run under way: at most one per site (a partial unique index keeps it so). */
export const RUN_UNDER_WAY = ["queued", "running"] as const satisfies readonly RunState[];
export const SAMPLE_STATES = [
  "queued",
  "running",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly SampleState[];
export const SAMPLE_ENDED = ["completed", "failed", "cancelled"] as const satisfies readonly SampleState[];
/** A sample still to be answered: its job is queued, or a worker is asking the engine. */
export const SAMPLE_OPEN = ["queued", "running"] as const satisfies readonly SampleState[];

/**
 * Every move of a run. A new run is `queued` (insertRun); its first sample moves it to
 * `running`; the last sample to end completes it. Under way it can fail (the budget, or a sweep
 * that gave up) or be cancelled; an ended run stays ended.
 */
export const RUN_TRANSITIONS = {
  markRunning: { from: ["queued"], to: "running" },
  /** a sample is claimed while the run is under way */
  claimSample: { from: [...RUN_UNDER_WAY], to: null },
  finishIfDone: { from: ["running"], to: "completed" },
  fail: { from: [...RUN_UNDER_WAY], to: "failed" },
  cancel: { from: [...RUN_UNDER_WAY], to: "cancelled" },
} as const satisfies Transitions<RunState>;

/**
 * Every move of a sample. A worker claims a queued sample (`running`); a worker that died leaves it
 * running, and the job taken again claims it again. It ends completed (its answer stored) or
 * failed (the engine's error kind kept); a sample not started when its run ends is cancelled.
 */
export const SAMPLE_TRANSITIONS = {
  claim: { from: [...SAMPLE_OPEN], to: "running" },
  /** a rate-limited or retried attempt gives its reservation back and waits */
  release: { from: ["running"], to: "queued" },
  complete: { from: ["running"], to: "completed" },
  fail: { from: [...SAMPLE_OPEN], to: "failed" },
  cancel: { from: [...SAMPLE_OPEN], to: "cancelled" },
} as const satisfies Transitions<SampleState>;

export const RUN_WHERE = {
  underWay: { status: { in: [...RUN_UNDER_WAY] } },
} as const satisfies Record<string, Prisma.VisibilityRunWhereInput>;

export const isRunUnderWay = (status: RunState): boolean => (RUN_UNDER_WAY as readonly string[]).includes(status);

export type PlannedSample = {
  promptId: string;
  promptText: string;
  promptLocale: string | null;
  engine: AiEngine;
  sampleIndex: number;
};

export type NewRun = {
  workspaceId: string;
  userId: string;
  siteId: string;
  engines: AiEngine[];
  samplesPerPrompt: number;
  requestId: string | null;
};

/**
 * Stores a new run, `queued`, with one row per sample it plans (`ordinal` its place in the plan);
 * answers every sample's id in the plan's order, and `queueNow`, the first `ahead` of them: the
 * run's window on the queue (`queued_samples`), the job of each sample that ends queueing the next
 * (`completeSample`, `failSample`). A run of a thousand samples so puts a window of jobs on the
 * queue, not a thousand at once in the second it starts, and the sweep looks at a window per run,
 * not every sample still to come.
 * The ids are made here, so the run and its samples are written as one batch (two
 * statements, one transaction): an interactive transaction would have to end within Prisma's 5 s,
 * which a run of a thousand samples on a busy database can pass (its caller then saw a 503).
 * A second run under way for the site breaks the partial unique index
 * `visibility_runs_one_under_way` (Prisma's P2002).
 */
export const insertRun = async (
  db: Db,
  run: NewRun,
  samples: readonly PlannedSample[],
  ahead: number = samples.length,
) => {
  const runId = randomUUID();
  const rows = samples.map((sample, ordinal) => ({ ...sample, id: randomUUID(), ordinal }));
  const sampleIds = rows.map((row) => row.id);
  const queuedSamples = Math.min(Math.max(1, ahead), samples.length);
  const [stored] = await db.$transaction([
    db.visibilityRun.create({ data: { ...run, id: runId, planned: samples.length, queuedSamples } }),
    // one statement over one JSON parameter: `createMany` of 1,200 rows builds its ten thousand
    // parameters in the caller's process, which held the gateway's event loop 3 s the first time
    // and 0.5 s after on a busy machine (every request it was serving waited)
    db.$executeRaw`
      INSERT INTO "visibility_samples"
        ("id", "run_id", "prompt_id", "prompt_text", "prompt_locale", "engine", "sample_index", "ordinal", "updated_at")
      SELECT s."id", ${runId}::uuid, s."promptId", s."promptText", s."promptLocale", s."engine"::"AiEngine",
        s."sampleIndex", s."ordinal", now()
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS s("id" uuid, "promptId" uuid, "promptText" text,
        "promptLocale" text, "engine" text, "sampleIndex" int, "ordinal" int)`,
  ]);
  return { run: stored, sampleIds, queueNow: sampleIds.slice(0, queuedSamples) };
};

/**
 * Moves a run's window on the queue one sample on, in the transaction that ended one of its
 * samples: answers the id of the next sample in plan order to queue, or null (every sample has
 * been queued, or the run has ended). Each sample ends once (its move is conditional), so a run
 * keeps as many jobs on the queue as it started with; the run's row is locked by the update, so
 * two samples ending at once queue two different ones. A job lost before it was queued is
 * queued again by the sweep, which looks at the samples inside the window.
 */
export const queueNext = async (db: DbClient, runId: string): Promise<string | null> => {
  const [moved] = await db.$queryRaw<{ ordinal: number }[]>`
    UPDATE "visibility_runs" SET "queued_samples" = "queued_samples" + 1
    WHERE "id" = ${runId}::uuid AND "queued_samples" < "planned"
      AND "status" = ANY(${[...RUN_UNDER_WAY]}::"VisibilityRunStatus"[])
    RETURNING "queued_samples" - 1 AS "ordinal"`;
  if (!moved) return null;
  const next = await db.visibilitySample.findFirst({
    where: { runId, ordinal: moved.ordinal, status: "queued" },
    select: { id: true },
  });
  return next?.id ?? null;
};

export type StaleSample = { id: string; runId: string; status: SampleState; updatedAt: Date; runStatus: RunState };

/**
 * Open samples unchanged since `before`, oldest first, that the sweep should look at: those of a
 * run that ended (to cancel), and those inside their run's window on the queue (`ordinal` below
 * `queued_samples`), whose job should exist. A sample beyond the window has no job yet by design.
 */
export const staleOpenSamples = (db: DbClient, before: Date, take: number): Promise<StaleSample[]> =>
  db.$queryRaw<StaleSample[]>`
    SELECT s."id", s."run_id" AS "runId", s."status"::text AS "status", s."updated_at" AS "updatedAt",
      r."status"::text AS "runStatus"
    FROM "visibility_samples" s JOIN "visibility_runs" r ON r."id" = s."run_id"
    WHERE s."status" = ANY(${[...SAMPLE_OPEN]}::"VisibilitySampleStatus"[]) AND s."updated_at" < ${before}
      AND (s."ordinal" < r."queued_samples" OR NOT r."status" = ANY(${[...RUN_UNDER_WAY]}::"VisibilityRunStatus"[]))
    ORDER BY s."updated_at", s."id"
    LIMIT ${take}`;

/** A workspace's monthly spend cap, checked when a sample is claimed. */
export type BudgetCheck = {
  /** US dollars a month; null: no cap */
  capUsd: number | null;
  /** what the sample may cost at most, held until it ends */
  projectedUsd: number;
  /** the start of the month spend is counted from */
  since: Date;
};

export type Claim =
  | { claimed: true; sample: VisibilitySample & { run: VisibilityRun } }
  | { claimed: false; reason: "ended" | "budget_exhausted"; spentUsd?: number };

/**
 * The workspace's spend since `since`: what its stored samples cost, and what the samples being
 * asked hold in reservation.
 */
export const spentSince = async (db: DbClient, workspaceId: string, since: Date): Promise<number> => {
  const [row] = await db.$queryRaw<{ spent: number | null }[]>`
    SELECT COALESCE(SUM(s."cost_usd" + s."reserved_usd"), 0)::float8 AS "spent"
    FROM "visibility_samples" s JOIN "visibility_runs" r ON r."id" = s."run_id"
    WHERE r."workspace_id" = ${workspaceId}::uuid AND COALESCE(s."finished_at", s."updated_at") >= ${since}`;
  return Number(row?.spent ?? 0);
};

/**
 * Claims a sample for asking: the sample moves to `running` with one more attempt and `projectedUsd`
 * reserved, the run to `running`. With a cap, the workspace's row is locked for the check, so
 * samples claimed at once never together pass it; a sample that would pass it is not claimed.
 */
export const claimSample = (db: Db, sampleId: string, budget: BudgetCheck): Promise<Claim> =>
  transaction(db, async (tx) => {
    const sample = await tx.visibilitySample.findUnique({ where: { id: sampleId }, include: { run: true } });
    if (
      !sample ||
      !allows(SAMPLE_TRANSITIONS.claim, sample.status) ||
      !allows(RUN_TRANSITIONS.claimSample, sample.run.status)
    ) {
      return { claimed: false, reason: "ended" };
    }
    if (budget.capUsd !== null) {
      // NO KEY UPDATE: claims still queue on it one at a time, but rows that only reference the
      // workspace (a scan being queued, a citation track) take KEY SHARE, which FOR UPDATE blocked
      await tx.$queryRaw`SELECT 1 FROM "workspaces" WHERE "id" = ${sample.run.workspaceId}::uuid FOR NO KEY UPDATE`;
      // this sample's own reservation (a claim again after a lost worker) is not counted twice
      const spent = (await spentSince(tx, sample.run.workspaceId, budget.since)) - sample.reservedUsd;
      if (spent + budget.projectedUsd > budget.capUsd)
        return { claimed: false, reason: "budget_exhausted", spentUsd: spent };
    }
    const { count } = await tx.visibilitySample.updateMany({
      where: { id: sampleId, status: { in: startStates(SAMPLE_TRANSITIONS.claim) } },
      data: { status: SAMPLE_TRANSITIONS.claim.to, attempts: { increment: 1 }, reservedUsd: budget.projectedUsd },
    });
    if (count === 0) return { claimed: false, reason: "ended" };
    await tx.visibilityRun.updateMany({
      where: { id: sample.runId, status: { in: startStates(RUN_TRANSITIONS.markRunning) } },
      data: { status: RUN_TRANSITIONS.markRunning.to, startedAt: new Date() },
    });
    const claimed = await tx.visibilitySample.findUniqueOrThrow({ where: { id: sampleId }, include: { run: true } });
    return { claimed: true, sample: claimed };
  });

/** Gives a claimed sample's reservation back and queues it again (it waits for a retry). */
export const releaseSample = async (db: DbClient, sampleId: string) => {
  const { count } = await db.visibilitySample.updateMany({
    where: { id: sampleId, status: { in: startStates(SAMPLE_TRANSITIONS.release) } },
    data: { status: SAMPLE_TRANSITIONS.release.to, reservedUsd: 0 },
  });
  return { moved: count > 0 };
};

/** Writes a run's counts, tokens and cost from its stored samples: counted once, however often this runs. */
const refreshRun = (db: DbClient, runId: string) =>
  db.$executeRaw`
    UPDATE "visibility_runs" r SET
      "done" = c."done", "failed" = c."failed", "tokens" = c."tokens", "cost_usd" = c."cost", "updated_at" = now()
    FROM (SELECT
        COUNT(*) FILTER (WHERE "status" = 'completed')::int AS "done",
        COUNT(*) FILTER (WHERE "status" = 'failed')::int AS "failed",
        COALESCE(SUM("input_tokens" + "output_tokens"), 0)::int AS "tokens",
        COALESCE(SUM("cost_usd"), 0)::float8 AS "cost"
      FROM "visibility_samples" WHERE "run_id" = ${runId}::uuid) c
    WHERE r."id" = ${runId}::uuid`;

/**
 * Completes a running run once no sample is open. The test and the move are one statement, so
 * of the workers ending its last samples at once exactly one completes it. The one that does
 * writes the run's counts again after it: a count written earlier in its transaction was read
 * before the other workers' samples committed (each statement reads what had committed when it
 * began), and would leave a completed run short of answers it has.
 */
export const finishIfDone = async (db: DbClient, runId: string): Promise<boolean> => {
  const moved = await db.$executeRaw`
    UPDATE "visibility_runs" SET "status" = ${RUN_TRANSITIONS.finishIfDone.to}::"VisibilityRunStatus",
      "completed_at" = now(), "updated_at" = now()
    WHERE "id" = ${runId}::uuid AND "status" = ANY(${startStates(RUN_TRANSITIONS.finishIfDone)}::"VisibilityRunStatus"[])
      AND NOT EXISTS (SELECT 1 FROM "visibility_samples" WHERE "run_id" = ${runId}::uuid
        AND "status" = ANY(${[...SAMPLE_OPEN]}::"VisibilitySampleStatus"[]))`;
  if (moved > 0) await refreshRun(db, runId);
  return moved > 0;
};

/** What is written with a run's completion, in the transaction that completes it: its alerts. */
export type OnRunCompleted = (tx: DbClient, runId: string) => Promise<unknown>;

/** finishIfDone in a transaction with what goes with the completion (a sweep completing a run). */
export const finishWith = (db: Db, runId: string, onCompleted?: OnRunCompleted): Promise<boolean> =>
  transaction(db, async (tx) => {
    const completed = await finishIfDone(tx, runId);
    if (completed) await onCompleted?.(tx, runId);
    return completed;
  });

/**
 * Stores a completed run's alerts (one per channel); written only in the transaction that
 * completes the run, so a run alerts once per channel or not at all.
 */
export const insertAlerts = async (tx: DbClient, alerts: Prisma.VisibilityAlertCreateManyInput[]) => {
  if (alerts.length === 0) return 0;
  const { count } = await tx.visibilityAlert.createMany({ data: alerts, skipDuplicates: true });
  return count;
};

export type SampleCitation = { url: string; domain: string; position: number; title: string | null };
export type SampleMention = { entity: string; kind: "brand" | "competitor"; position: number };

export type SampleAnswer = {
  answerText: string;
  model: string;
  citations: SampleCitation[];
  searchQueries: string[];
  mentions: SampleMention[];
  brandMentioned: boolean;
  brandCited: boolean;
  citedPage: string | null;
  /** the page cited in the site's place when the site is not: the track's citation_url */
  trackUrl: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
};

/**
 * Stores a sample's answer and, in the same transaction, the citation track it observes (the
 * spec's `platform`, `query_text`, `cited`, `citation_url`, `checked_at`); the run's counts and
 * spend are written again from its samples, the next sample to queue is answered (`queueNext`),
 * and the run completes if this was its last one. A sample already ended is left as it is: an
 * answer is stored once.
 */
export const completeSample = (
  db: Db,
  sampleId: string,
  answer: SampleAnswer,
  finishedAt: Date,
  onCompleted?: OnRunCompleted,
) =>
  transaction(db, async (tx) => {
    const { trackUrl, citations, mentions, ...columns } = answer;
    const { count } = await tx.visibilitySample.updateMany({
      where: { id: sampleId, status: { in: startStates(SAMPLE_TRANSITIONS.complete) } },
      data: {
        ...columns,
        citations: citations as unknown as Prisma.InputJsonValue,
        mentions: mentions as unknown as Prisma.InputJsonValue,
        status: SAMPLE_TRANSITIONS.complete.to,
        reservedUsd: 0,
        errorKind: null,
        errorMessage: null,
        finishedAt,
      },
    });
    if (count === 0) return { stored: false, runCompleted: false, next: null };
    const sample = await tx.visibilitySample.findUniqueOrThrow({ where: { id: sampleId }, include: { run: true } });
    await citationTracks.insert(tx, {
      userId: sample.run.userId,
      workspaceId: sample.run.workspaceId,
      siteId: sample.run.siteId,
      platform: sample.engine,
      queryText: sample.promptText,
      cited: answer.brandCited,
      citationUrl: trackUrl,
      checkedAt: finishedAt,
      sampleId,
    });
    await refreshRun(tx, sample.runId);
    const next = await queueNext(tx, sample.runId);
    const runCompleted = await finishIfDone(tx, sample.runId);
    if (runCompleted) await onCompleted?.(tx, sample.runId);
    return { stored: true, runCompleted, runId: sample.runId, next };
  });

/**
 * Fails a sample with the engine's error kind; the run's counts are written again, the next
 * sample to queue is answered (`queueNext`), and the run completes if this was its last one.
 */
export const failSample = (
  db: Db,
  sampleId: string,
  reason: { kind: string; message: string },
  onCompleted?: OnRunCompleted,
) =>
  transaction(db, async (tx) => {
    const { count } = await tx.visibilitySample.updateMany({
      where: { id: sampleId, status: { in: startStates(SAMPLE_TRANSITIONS.fail) } },
      data: {
        status: SAMPLE_TRANSITIONS.fail.to,
        reservedUsd: 0,
        errorKind: reason.kind,
        errorMessage: reason.message.slice(0, 1000),
        finishedAt: new Date(),
      },
    });
    if (count === 0) return { moved: false, runCompleted: false, next: null };
    const { runId } = await tx.visibilitySample.findUniqueOrThrow({
      where: { id: sampleId },
      select: { runId: true },
    });
    await refreshRun(tx, runId);
    const next = await queueNext(tx, runId);
    const runCompleted = await finishIfDone(tx, runId);
    if (runCompleted) await onCompleted?.(tx, runId);
    return { moved: true, runCompleted, runId, next };
  });

/**
 * Ends a run under way as `to` (failed with its reason, or cancelled); its samples not yet started are cancelled.
 * It writes the run and then its samples where a sample job writes a sample and then the run, so
 * the two can deadlock: `transaction` runs the one Postgres gave up again.
 */
const endRun = (db: Db, runId: string, move: "fail" | "cancel", reason?: { code: string; message: string }) =>
  transaction(db, async (tx) => {
    const { count } = await tx.visibilityRun.updateMany({
      where: { id: runId, status: { in: startStates(RUN_TRANSITIONS[move]) } },
      data: {
        status: RUN_TRANSITIONS[move].to,
        completedAt: new Date(),
        ...(reason ? { errorCode: reason.code, errorMessage: reason.message.slice(0, 1000) } : {}),
      },
    });
    if (count === 0) return { moved: false };
    await tx.visibilitySample.updateMany({
      where: { runId, status: "queued" },
      data: { status: SAMPLE_TRANSITIONS.cancel.to, reservedUsd: 0, finishedAt: new Date() },
    });
    await refreshRun(tx, runId);
    return { moved: true };
  });

/** Fails a run under way with its reason (`budget_exhausted`, or a sweep's); samples being asked finish and are kept. */
export const failRun = (db: Db, runId: string, reason: { code: string; message: string }) =>
  endRun(db, runId, "fail", reason);

/** Cancels a run under way; samples being asked finish and are kept. */
export const cancelRun = (db: Db, runId: string) => endRun(db, runId, "cancel");

/**
 * A sample being asked when its run ended (failed or cancelled) is stored when it comes back, but
 * a sample that cannot start any more is cancelled: what a sample job does when its run has ended.
 */
export const cancelSample = async (db: DbClient, sampleId: string) => {
  const { count } = await db.visibilitySample.updateMany({
    where: { id: sampleId, status: { in: startStates(SAMPLE_TRANSITIONS.cancel) } },
    data: { status: SAMPLE_TRANSITIONS.cancel.to, reservedUsd: 0, finishedAt: new Date() },
  });
  return { moved: count > 0 };
};
