import { randomUUID } from "node:crypto";
import type { ScanOutcome } from "@scan/contract";
import { createDb, type Db, Prisma } from "@scan/db";
import {
  AUDIT_PAGE_STATES,
  AUDIT_PAGE_TRANSITIONS,
  AUDIT_STATES,
  AUDIT_TRANSITIONS,
  allows,
  auditPages,
  audits,
  CALLBACK_TRANSITIONS,
  type Move,
  SCAN_STATES,
  SCAN_TRANSITIONS,
  scans,
  schedules,
  sites,
  transaction,
  visibilityRuns,
} from "@scan/records";
import { createAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";

/**
 * Every operation of @scan/records on a row in every state, against real Postgres: the row moves
 * exactly as its kind's transition table allows, and a move the table does not allow changes
 * nothing and says so.
 */

const OUTCOME: ScanOutcome = {
  finalUrl: "https://records.example/page",
  rendered: false,
  renderFailure: null,
  scores: { seo: 80, aeo: 70, geo: 60, overall: 71, total: 71 },
  grade: "B",
  issues: { critical: 1, warning: 2, info: 3 },
  checks: [],
};
const REPORT = {
  scores: { seo: 81, aeo: 72, geo: 63, overall: 73, total: 73 },
  grade: "B" as const,
  issues: { critical: 0, warning: 1, info: 2 },
};
/** every row the operations are tried on is this old: retention's cutoff is "now" */
const PAST = new Date(Date.now() - 60_000);
const NOW = Prisma.sql`now()`;

describe("@scan/records", () => {
  let database: TestDatabase;
  let db: Db;
  let userId: string;
  let workspaceId: string;
  let siteId: string;
  const personalOf = async (id: string) => (await db.workspace.findUniqueOrThrow({ where: { personalUserId: id } })).id;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    userId = (await createAccount(db, "agency")).user.id;
    workspaceId = await personalOf(userId);
    siteId = (
      await sites.ensure(db, { workspaceId, userId }, { url: "https://records.example", domain: "records.example" })
    ).site.id;
  }, 300_000);

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
    await stopContainers();
  });

  /** the row, less the columns every write touches */
  const comparable = <T extends { updatedAt: Date }>(row: T | null) => {
    if (!row) return null;
    const { updatedAt: _, ...rest } = row;
    return rest;
  };

  describe("scans", () => {
    const scanIn = (status: (typeof SCAN_STATES)[number], extra: Partial<Prisma.ScanUncheckedCreateInput> = {}) =>
      db.scan.create({
        data: {
          id: randomUUID(),
          url: "https://records.example/page",
          mode: "quick",
          status,
          userId,
          requeues: 1,
          checks: [],
          createdAt: PAST,
          callbackUrl: "https://hooks.example/scan",
          callbackState: "pending",
          ...extra,
        },
      });
    type Row = Awaited<ReturnType<typeof scanIn>>;

    /** runs the named operation on the row; true when it says it moved the row */
    const SCAN_OPS: Record<keyof typeof SCAN_TRANSITIONS, (row: Row) => Promise<boolean>> = {
      markRunning: async (row) => (await scans.markRunning(db, row.id)).moved,
      complete: async (row) => (await scans.complete(db, row.id, OUTCOME, "quick")).stored,
      fail: async (row) => (await scans.fail(db, row.id, { code: "internal_error", message: "broke" })).moved,
      requeue: async (row) => (await scans.requeue(db, row.id, row)).moved,
      returnRequeue: async (row) => (await scans.returnRequeue(db, row.id, row)).moved,
      pruneChecks: async (row) => {
        await scans.pruneChecks(db, NOW, 1_000);
        return (await db.scan.findUniqueOrThrow({ where: { id: row.id } })).checksPrunedAt !== null;
      },
    };

    const cases = Object.keys(SCAN_TRANSITIONS).flatMap((op) =>
      SCAN_STATES.map((state) => [op as keyof typeof SCAN_TRANSITIONS, state] as const),
    );

    it.each(cases)("%s on a %s scan moves it only as SCAN_TRANSITIONS allows", async (op, state) => {
      const move: Move<string> = SCAN_TRANSITIONS[op];
      const row = await scanIn(state);
      const moved = await SCAN_OPS[op](row);
      const after = await db.scan.findUniqueOrThrow({ where: { id: row.id } });
      expect(moved).toBe(allows(move, state));
      if (!moved) {
        expect(comparable(after)).toEqual(comparable(row));
        expect(after.updatedAt).toEqual(row.updatedAt);
      } else expect(after.status).toBe(move.to ?? state);
    });

    it("insertQueued stores queued rows, a callback's delivery pending", async () => {
      const id = randomUUID();
      const bare = randomUUID();
      await scans.insertQueued(db, [{ id, url: "https://records.example/a", mode: "full", requestId: "r1" }], {
        owner: { workspaceId, userId, apiKeyId: null },
        callbackUrl: "https://hooks.example/a",
      });
      await scans.insertQueued(db, [{ id: bare, url: "https://records.example/b", mode: "quick", requestId: "r2" }], {
        owner: null,
        callbackUrl: null,
      });
      expect(await db.scan.findUniqueOrThrow({ where: { id } })).toMatchObject({
        status: "queued",
        userId,
        callbackState: "pending",
      });
      expect(await db.scan.findUniqueOrThrow({ where: { id: bare } })).toMatchObject({
        status: "queued",
        userId: null,
        callbackState: null,
      });
    });

    it("complete stores the outcome's columns and the owner's site scores; a failed scan keeps its verdict", async () => {
      const row = await scanIn("queued", { url: "https://scored.example/page" });
      expect(await scans.complete(db, row.id, OUTCOME, "quick")).toEqual({
        stored: true,
        callbackUrl: "https://hooks.example/scan",
      });
      expect(await db.scan.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: "completed",
        finalUrl: OUTCOME.finalUrl,
        overall: 71,
        grade: "B",
        issuesCritical: 1,
        issuesWarning: 2,
        issuesInfo: 3,
        rendered: false,
        errorCode: null,
      });
      const site = await db.site.findUniqueOrThrow({
        where: { workspaceId_url: { workspaceId, url: "https://scored.example" } },
      });
      expect(site).toMatchObject({ latestSeo: 80, latestScanId: row.id });

      // the reaper failed it while its worker still ran: the worker's late result is not stored
      const reaped = await scanIn("failed", { errorCode: "internal_error", errorMessage: "lost" });
      expect(await scans.complete(db, reaped.id, OUTCOME, "quick")).toEqual({ stored: false, status: "failed" });
      expect(await db.scan.findUniqueOrThrow({ where: { id: reaped.id } })).toMatchObject({
        status: "failed",
        errorMessage: "lost",
        overall: null,
      });
      expect(await scans.complete(db, randomUUID(), OUTCOME, "quick")).toEqual({ stored: false, status: null });
    });

    it("complete scores no site with a result it did not store", async () => {
      const siteOf = (url: string) => db.site.findUnique({ where: { workspaceId_url: { workspaceId, url } } });
      const reaped = await scanIn("failed", { url: "https://reaped.example/page", errorCode: "internal_error" });
      expect(await scans.complete(db, reaped.id, OUTCOME, "full")).toEqual({ stored: false, status: "failed" });
      expect(await siteOf("https://reaped.example")).toBeNull();

      // another run of the scan stored it first: its verdict, and its site's scores, stand
      const done = await scanIn("completed", { url: "https://done.example/page", seo: 10, overall: 10 });
      expect(await scans.complete(db, done.id, OUTCOME, "full")).toEqual({ stored: false, status: "completed" });
      expect(await db.scan.findUniqueOrThrow({ where: { id: done.id } })).toMatchObject({ seo: 10, overall: 10 });
      expect(await siteOf("https://done.example")).toBeNull();
    });

    it("two runs completing one scan at once: one stores it, and the site takes that run's scores", async () => {
      const low = { ...OUTCOME, scores: { ...OUTCOME.scores, seo: 40 } };
      for (let i = 0; i < 5; i++) {
        const row = await scanIn("running", { url: `https://race-${i}.example/page` });
        const results = await Promise.all([
          scans.complete(db, row.id, OUTCOME, "full"),
          scans.complete(db, row.id, low, "full"),
        ]);
        expect(results.filter((result) => result.stored)).toHaveLength(1);
        expect(results.filter((result) => !result.stored)).toEqual([{ stored: false, status: "completed" }]);
        const stored = await db.scan.findUniqueOrThrow({ where: { id: row.id } });
        const site = await db.site.findUniqueOrThrow({
          where: { workspaceId_url: { workspaceId, url: `https://race-${i}.example` } },
        });
        expect(site).toMatchObject({ latestSeo: stored.seo, latestScanId: row.id, latestScoresAt: stored.completedAt });
      }
    });

    it("a sweep's move waits for the row as it read it", async () => {
      const row = await scanIn("running");
      const stale = { updatedAt: new Date(row.updatedAt.getTime() - 1), requeues: row.requeues };
      expect(await scans.requeue(db, row.id, stale)).toEqual({ moved: false });
      expect(await scans.fail(db, row.id, { code: "internal_error", message: "x" }, stale)).toEqual({ moved: false });
      expect((await db.scan.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("running");
      expect(await scans.requeue(db, row.id, row)).toEqual({ moved: true });
      expect(await db.scan.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
        status: "queued",
        startedAt: null,
        requeues: row.requeues + 1,
      });
    });

    const callbackCases = Object.keys(CALLBACK_TRANSITIONS).flatMap((op) =>
      (["pending", "delivered", "failed"] as const).map(
        (state) => [op as keyof typeof CALLBACK_TRANSITIONS, state] as const,
      ),
    );

    it.each(callbackCases)("%s on a %s callback moves it only as CALLBACK_TRANSITIONS allows", async (op, state) => {
      const move: Move<string> = CALLBACK_TRANSITIONS[op];
      const row = await scanIn("completed", { callbackState: state });
      const { moved } = await scans[op](db, row.id);
      expect(moved).toBe(allows(move, state));
      expect((await db.scan.findUniqueOrThrow({ where: { id: row.id } })).callbackState).toBe(moved ? move.to : state);
    });
  });

  const auditIn = (status: (typeof AUDIT_STATES)[number], extra: Partial<Prisma.AuditUncheckedCreateInput> = {}) =>
    db.audit.create({
      data: {
        userId,
        siteId,
        startUrl: "https://records.example/",
        mode: "full",
        status,
        maxPages: 10,
        include: [],
        exclude: [],
        createdAt: PAST,
        ...extra,
      },
    });

  const pageIn = (auditId: string, status: (typeof AUDIT_PAGE_STATES)[number], position = 1) =>
    db.auditPage.create({
      data: {
        auditId,
        url: `https://records.example/p${position}`,
        position,
        depth: 0,
        status,
        checks: [],
        facts: {},
      },
    });

  describe("audits", () => {
    type Row = Awaited<ReturnType<typeof auditIn>>;
    const AUDIT_OPS: Record<keyof typeof AUDIT_TRANSITIONS, (row: Row) => Promise<boolean>> = {
      recordDiscovery: async (row) => (await audits.recordDiscovery(db, row.id, { found: true }, new Date())).moved,
      markRunning: async (row) => (await audits.markRunning(db, row.id)).moved,
      admitPages: async (row) =>
        (await audits.admitPages(db, row.id, [{ url: "https://records.example/new", depth: 1, inSitemap: false }]))
          .length > 0,
      finishIfDone: (row) => audits.finishIfDone(db, row.id),
      complete: async (row) => (await audits.complete(db, row.id, REPORT, new Date())).stored,
      fail: async (row) => (await audits.fail(db, row.id, { code: "internal_error", message: "broke" })).moved,
      cancel: async (row) => (await audits.cancel(db, row.id)).moved,
      requeueStep: async (row) => (await audits.requeueStep(db, row.id, row)).moved,
      prunePageChecks: async (row) => {
        const page = await pageIn(row.id, "scanned");
        await audits.prunePageChecks(db, NOW, 1_000);
        return (await db.auditPage.findUniqueOrThrow({ where: { id: page.id } })).checks === null;
      },
    };

    const cases = Object.keys(AUDIT_TRANSITIONS).flatMap((op) =>
      AUDIT_STATES.map((state) => [op as keyof typeof AUDIT_TRANSITIONS, state] as const),
    );

    it.each(cases)("%s on a %s audit moves it only as AUDIT_TRANSITIONS allows", async (op, state) => {
      const move: Move<string> = AUDIT_TRANSITIONS[op];
      const row = await auditIn(state);
      const moved = await AUDIT_OPS[op](row);
      const after = await db.audit.findUniqueOrThrow({ where: { id: row.id } });
      expect(moved).toBe(allows(move, state));
      if (!moved) {
        expect(comparable(after)).toEqual(comparable(row));
        expect(after.updatedAt).toEqual(row.updatedAt);
      } else expect(after.status).toBe(move.to ?? state);
    });

    it("finishIfDone waits for the audit's open pages; cancel ends its waiting pages and keeps the running", async () => {
      const audit = await auditIn("running");
      const running = await pageIn(audit.id, "running", 1);
      const waiting = await pageIn(audit.id, "queued", 2);
      expect(await audits.finishIfDone(db, audit.id)).toBe(false);
      expect(await audits.cancel(db, audit.id)).toEqual({ moved: true });
      expect((await db.auditPage.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe("cancelled");
      expect((await db.auditPage.findUniqueOrThrow({ where: { id: running.id } })).status).toBe("running");

      const done = await auditIn("running");
      await pageIn(done.id, "scanned", 1);
      expect(await audits.finishIfDone(db, done.id)).toBe(true);
      expect(await audits.finishIfDone(db, done.id)).toBe(false);
    });

    it("admitPages admits a URL once, within max_pages, and counts it on the audit", async () => {
      const audit = await auditIn("running", { maxPages: 2 });
      const candidates = ["a", "b", "c"].map((p) => ({
        url: `https://records.example/${p}`,
        depth: 1,
        inSitemap: false,
      }));
      const admitted = await audits.admitPages(db, audit.id, candidates);
      expect(admitted.map((page) => page.url)).toEqual(["https://records.example/a", "https://records.example/b"]);
      expect(await audits.admitPages(db, audit.id, candidates)).toEqual([]);
      expect((await db.audit.findUniqueOrThrow({ where: { id: audit.id } })).discovered).toBe(2);
    });

    it("complete writes what goes alongside only when the audit completes", async () => {
      const audit = await auditIn("finalizing");
      const written: string[] = [];
      expect(await audits.complete(db, audit.id, REPORT, new Date(), async () => written.push("alerts"))).toEqual({
        stored: true,
      });
      expect(await audits.complete(db, audit.id, REPORT, new Date(), async () => written.push("again"))).toEqual({
        stored: false,
      });
      expect(written).toEqual(["alerts"]);
      expect(await db.audit.findUniqueOrThrow({ where: { id: audit.id } })).toMatchObject({
        status: "completed",
        overall: 73,
        issuesInfo: 2,
      });
    });
  });

  describe("audit pages", () => {
    type Row = Awaited<ReturnType<typeof pageIn>>;
    const PAGE_OPS: Record<keyof typeof AUDIT_PAGE_TRANSITIONS, (row: Row) => Promise<boolean>> = {
      markRunning: async (row) => (await auditPages.markRunning(db, row.id)).moved,
      complete: async (row) =>
        (await auditPages.complete(db, row.id, { httpStatus: 200, outcome: OUTCOME, facts: { title: "x" } })).stored,
      fail: async (row) => (await auditPages.fail(db, row.id, { message: "no answer", httpStatus: 503 })).moved,
      block: async (row) => (await auditPages.block(db, row.id, "robots.txt disallows it")).moved,
      cancel: async (row) => (await auditPages.cancel(db, row.id)).moved,
      cancelWaiting: async (row) => (await auditPages.cancelWaiting(db, row.auditId)) > 0,
      requeue: async (row) => (await auditPages.requeue(db, row.id, row)).moved,
    };

    const cases = Object.keys(AUDIT_PAGE_TRANSITIONS).flatMap((op) =>
      AUDIT_PAGE_STATES.map((state) => [op as keyof typeof AUDIT_PAGE_TRANSITIONS, state] as const),
    );

    it.each(cases)("%s on a %s page moves it only as AUDIT_PAGE_TRANSITIONS allows", async (op, state) => {
      const move: Move<string> = AUDIT_PAGE_TRANSITIONS[op];
      const audit = await auditIn("running");
      const row = await db.auditPage.update({
        where: { id: (await pageIn(audit.id, state)).id },
        data: { requeues: 1 },
      });
      const moved = await PAGE_OPS[op](row);
      const after = await db.auditPage.findUniqueOrThrow({ where: { id: row.id } });
      expect(moved).toBe(allows(move, state));
      if (!moved) {
        expect(comparable(after)).toEqual(comparable(row));
        expect(after.updatedAt).toEqual(row.updatedAt);
      } else expect(after.status).toBe(move.to ?? state);
    });

    it("complete stores the outcome's columns and the page's facts", async () => {
      const audit = await auditIn("running");
      const page = await pageIn(audit.id, "running");
      await auditPages.complete(db, page.id, { httpStatus: 200, outcome: OUTCOME, facts: { title: "x" } });
      expect(await db.auditPage.findUniqueOrThrow({ where: { id: page.id } })).toMatchObject({
        status: "scanned",
        httpStatus: 200,
        finalUrl: OUTCOME.finalUrl,
        seo: 80,
        grade: "B",
        issuesWarning: 2,
        facts: { title: "x" },
      });
    });
  });

  describe("sites", () => {
    it("ensure makes a site once per origin and renames it when asked; rename and remove need the owner", async () => {
      const origin = { url: "https://one.example", domain: "one.example" };
      const first = await sites.ensure(db, { workspaceId, userId }, origin);
      expect(first).toMatchObject({ created: true, site: { name: "one.example" } });
      expect(await sites.ensure(db, { workspaceId, userId }, origin, "One")).toMatchObject({
        created: false,
        site: { id: first.site.id, name: "One" },
      });
      const stranger = await personalOf((await createAccount(db)).user.id);
      expect(await sites.rename(db, stranger, first.site.id, "Theirs")).toEqual({ moved: false });
      expect(await sites.rename(db, workspaceId, first.site.id, "Mine")).toEqual({ moved: true });
      expect(await sites.setCredentials(db, stranger, first.site.id, "sealed", new Date())).toEqual({ moved: false });
      expect(await sites.setCredentials(db, workspaceId, first.site.id, "sealed", new Date())).toEqual({ moved: true });
      expect(await sites.clearCredentials(db, workspaceId, first.site.id)).toEqual({ moved: true });
      expect(await db.site.findUniqueOrThrow({ where: { id: first.site.id } })).toMatchObject({
        name: "Mine",
        credentialsSealed: null,
        credentialsUpdatedAt: null,
      });
      expect(await sites.remove(db, stranger, first.site.id)).toEqual({ moved: false });
      expect(await sites.remove(db, workspaceId, first.site.id)).toEqual({ moved: true });
      expect(await db.site.findUnique({ where: { id: first.site.id } })).toBeNull();
    });
  });

  describe("schedules", () => {
    it("a firing starts one audit, records it on the schedule, and none while one is under way", async () => {
      const site = (
        await sites.ensure(db, { workspaceId, userId }, { url: "https://due.example", domain: "due.example" })
      ).site;
      const schedule = await schedules.insert(
        db,
        { siteId: site.id, workspaceId, userId },
        { frequency: "daily", mode: "quick", maxPages: 5, include: [], exclude: [] },
      );
      const audit = { startUrl: "https://due.example/", include: [], exclude: [], requestId: "schedule-1" };
      const started = await schedules.startScheduledAudit(db, schedule, audit);
      if (!started.started) throw new Error("the schedule's first firing started no audit");
      expect(started.audit).toMatchObject({ status: "discovering", siteId: site.id, maxPages: 5 });
      expect(await db.auditSchedule.findUniqueOrThrow({ where: { siteId: site.id } })).toMatchObject({
        lastAuditId: started.audit.id,
      });
      expect(await schedules.startScheduledAudit(db, schedule, audit)).toEqual({ started: false, reason: "fired" });
      expect(await schedules.startScheduledAudit(db, schedule, { ...audit, requestId: "schedule-2" })).toEqual({
        started: false,
        reason: "busy",
      });
      await schedules.change(db, site.id, { frequency: "weekly", mode: "full", maxPages: 9, include: [], exclude: [] });
      expect(await db.auditSchedule.findUniqueOrThrow({ where: { siteId: site.id } })).toMatchObject({
        frequency: "weekly",
        maxPages: 9,
      });
      expect(await schedules.remove(db, site.id)).toEqual({ moved: true });
      expect(await schedules.remove(db, site.id)).toEqual({ moved: false });
    });
  });

  describe("visibility runs", () => {
    const ANSWER = {
      answerText: "Acme.",
      model: "gpt",
      citations: [],
      searchQueries: [],
      mentions: [],
      brandMentioned: true,
      brandCited: false,
      citedPage: null,
      trackUrl: null,
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0.01,
    };
    /** A run of `count` samples of one prompt each on ChatGPT, `ahead` of them on the queue at once (all when not given). */
    const insertRun = (promptText: string, count: number, ahead?: number) =>
      visibilityRuns.insertRun(
        db,
        { workspaceId, userId, siteId, engines: ["chatgpt"], samplesPerPrompt: 1, requestId: null },
        Array.from({ length: count }, (_, sampleIndex) => ({
          promptId: randomUUID(),
          promptText,
          promptLocale: null,
          engine: "chatgpt" as const,
          sampleIndex,
        })),
        ahead,
      );
    const claim = (id: string) => visibilityRuns.claimSample(db, id, { capUsd: null, projectedUsd: 0.01, since: PAST });

    it("completes a run whose last samples end at once with every answer counted", async () => {
      for (let round = 0; round < 12; round++) {
        const { run, sampleIds } = await insertRun("at once", 3);
        for (const id of sampleIds) await claim(id);
        await Promise.all(sampleIds.map((id) => visibilityRuns.completeSample(db, id, ANSWER, new Date())));
        const stored = await db.visibilityRun.findUniqueOrThrow({ where: { id: run.id } });
        expect({ round, status: stored.status, done: stored.done }).toEqual({ round, status: "completed", done: 3 });
      }
    }, 120_000);

    it("keeps a run's window on the queue: each sample that ends queues the next in plan order, once", async () => {
      const { run, sampleIds, queueNow } = await insertRun("in a window", 10, 4);
      expect(queueNow).toEqual(sampleIds.slice(0, 4));
      expect(run.queuedSamples).toBe(4);
      // the sweep looks at the window only: the samples beyond it have no job by design
      const stale = await visibilityRuns.staleOpenSamples(db, new Date(Date.now() + 60_000), 100);
      expect(
        stale
          .filter((row) => row.runId === run.id)
          .map((row) => row.id)
          .sort(),
      ).toEqual(sampleIds.slice(0, 4).sort());

      // two ending at once (one answered, one failed) queue two different samples, the next two
      for (const id of sampleIds.slice(0, 2)) await claim(id);
      const [answered, failed] = await Promise.all([
        visibilityRuns.completeSample(db, sampleIds[0] as string, ANSWER, new Date()),
        visibilityRuns.failSample(db, sampleIds[1] as string, { kind: "refused", message: "no" }),
      ]);
      expect([answered.next, failed.next].sort()).toEqual(sampleIds.slice(4, 6).sort());
      // a sample already ended queues nothing again
      expect((await visibilityRuns.completeSample(db, sampleIds[0] as string, ANSWER, new Date())).next).toBeNull();

      // the rest, in order: the window moves to the plan's end and no further
      const queued = [...queueNow, answered.next, failed.next];
      for (let i = 2; i < 10; i++) {
        const id = sampleIds[i] as string;
        expect(queued).toContain(id);
        await claim(id);
        const { next } = await visibilityRuns.completeSample(db, id, ANSWER, new Date());
        if (next) queued.push(next);
        expect(next).toBe(i + 4 < 10 ? sampleIds[i + 4] : null);
      }
      const stored = await db.visibilityRun.findUniqueOrThrow({ where: { id: run.id } });
      expect(stored).toMatchObject({ status: "completed", done: 9, failed: 1, queuedSamples: 10 });
      expect(new Set(queued).size).toBe(10);
    });

    it("moves a run's window no more once the run has ended", async () => {
      const { run, sampleIds } = await insertRun("ended", 3, 1);
      await claim(sampleIds[0] as string);
      await visibilityRuns.cancelRun(db, run.id);
      // the sample being asked is kept when it comes back, and queues nothing
      const { stored, next } = await visibilityRuns.completeSample(db, sampleIds[0] as string, ANSWER, new Date());
      expect({ stored, next }).toEqual({ stored: true, next: null });
      expect(await db.visibilityRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
        status: "cancelled",
        queuedSamples: 1,
      });
    });
  });

  describe("transaction", () => {
    const queuedScan = async () =>
      (
        await db.scan.create({
          data: { id: randomUUID(), url: "https://records.example/page", mode: "quick", status: "queued", userId },
        })
      ).id;

    it("runs again the transaction Postgres gives up to break a deadlock, so both writers store", async () => {
      const [first, second] = [await queuedScan(), await queuedScan()];
      // each transaction holds one row and then asks for the other: both wait until both hold one
      let arrived = 0;
      let bothHold!: () => void;
      const holding = new Promise<void>((resolve) => {
        bothHold = resolve;
      });
      const meet = async () => {
        if (++arrived === 2) bothHold();
        await holding;
      };
      let runs = 0;
      const crossWrite = (one: string, other: string, by: number) =>
        transaction(db, async (tx) => {
          runs++;
          await tx.scan.update({ where: { id: one }, data: { requeues: { increment: by } } });
          await meet();
          await tx.scan.update({ where: { id: other }, data: { requeues: { increment: by } } });
        });
      const outcomes = await Promise.allSettled([crossWrite(first, second, 1), crossWrite(second, first, 10)]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled"]);
      // Postgres broke the deadlock by giving one of them up; that one ran a second time
      expect(runs).toBe(3);
      const rows = await db.scan.findMany({ where: { id: { in: [first, second] } }, select: { requeues: true } });
      expect(rows.map((row) => row.requeues)).toEqual([11, 11]);
    }, 30_000);

    it("does not run again a transaction that failed for another reason", async () => {
      const id = await queuedScan();
      let runs = 0;
      await expect(
        transaction(db, async (tx) => {
          runs++;
          await tx.scan.update({ where: { id }, data: { requeues: 5 } });
          await tx.scan.create({ data: { id, url: "https://records.example/again", mode: "quick", userId } });
        }),
      ).rejects.toMatchObject({ code: "P2002" });
      expect(runs).toBe(1);
      // rolled back: the first write is not kept
      expect((await db.scan.findUniqueOrThrow({ where: { id } })).requeues).toBe(0);
    });
  });
});
