import { randomUUID } from "node:crypto";
import { createDb, type Db } from "@scan/db";
import { createLogger } from "@scan/platform";
import { createPruner } from "@scan/worker";
import { createAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";

/**
 * Retention: full check lists of scans and audit pages older than the owner's plan keeps them
 * are pruned in small batches; scores, grades, issue counts and audit reports are kept.
 */

const DAY = 24 * 3600 * 1000;
const CHECKS = [{ id: "title", status: "pass" }];

describe("retention", () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
  }, 300_000);

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
    await stopContainers();
  });

  it("prunes check lists past each plan's days, in batches, and keeps what history needs", async () => {
    const free = await createAccount(db, "free");
    const agency = await createAccount(db, "agency");
    const scanOf = (userId: string | null, ageDays: number) =>
      db.scan.create({
        data: {
          id: randomUUID(),
          userId,
          url: "https://kept.example/page",
          mode: "full",
          status: "completed",
          seo: 80,
          aeo: 70,
          geo: 60,
          overall: 71,
          grade: "B",
          issuesWarning: 2,
          checks: CHECKS,
          createdAt: new Date(Date.now() - ageDays * DAY),
          completedAt: new Date(Date.now() - ageDays * DAY),
        },
      });
    // free keeps 30 days, anonymous 7, agency 365: five old free scans, one recent, one old
    // anonymous, one recent anonymous still past the free plan's days' start, one old agency
    const oldFree = await Promise.all([40, 41, 42, 43, 44].map((age) => scanOf(free.user.id, age)));
    const recentFree = await scanOf(free.user.id, 3);
    const anonymous = await scanOf(null, 8);
    const recentAnonymous = await scanOf(null, 6);
    const agencyOld = await scanOf(agency.user.id, 100);
    const site = await db.site.create({
      data: { userId: free.user.id, url: "https://kept.example", domain: "kept.example", name: "kept" },
    });
    const audit = await db.audit.create({
      data: {
        userId: free.user.id,
        siteId: site.id,
        startUrl: "https://kept.example/",
        mode: "full",
        status: "completed",
        maxPages: 10,
        include: [],
        exclude: [],
        report: { kept: true },
        overall: 70,
        createdAt: new Date(Date.now() - 60 * DAY),
      },
    });
    await db.auditPage.createMany({
      data: [1, 2, 3].map((position) => ({
        auditId: audit.id,
        url: `https://kept.example/${position}`,
        position,
        depth: 1,
        status: "scanned" as const,
        overall: 70,
        checks: CHECKS,
        facts: { links: [] },
      })),
    });

    // audit log entries, kept by the workspace's plan: the free one's 400 days (two older, one
    // younger), the agency one's 800 (one older; one at 500 days, past the free plan's, kept)
    const workspaceOf = async (userId: string) =>
      (await db.workspace.findUniqueOrThrow({ where: { personalUserId: userId } })).id;
    const workspaceId = await workspaceOf(free.user.id);
    const agencyWorkspaceId = await workspaceOf(agency.user.id);
    const entryOf = (ageDays: number, workspace = workspaceId) =>
      db.auditLogEntry.create({
        data: {
          workspaceId: workspace,
          action: "site.created",
          actorUserId: free.user.id,
          targetType: "site",
          targetId: site.id,
          createdAt: new Date(Date.now() - ageDays * DAY),
        },
      });
    await Promise.all([401, 500].map((age) => entryOf(age)));
    await entryOf(801, agencyWorkspaceId);
    const keptEntries = [await entryOf(399), await entryOf(500, agencyWorkspaceId)];

    const pruner = createPruner({
      db,
      days: { anonymous: 7, free: 30, starter: 90, pro: 180, agency: 365 },
      auditLogDays: { free: 400, starter: 400, pro: 400, agency: 800 },
      batchSize: 2,
      maxBatches: 100,
      log: createLogger({ service: "test", level: "silent" }),
    });
    const result = await pruner.prune();
    expect(result).toMatchObject({ scans: 6, auditPages: 3, auditLog: 3 });
    // batches of two: 6 scans take 4 statements (2, 2, 2, 0), 3 pages take 2 (2, 1), 3 entries 2 (2, 1)
    expect(result.batches).toBe(8);
    const entries = await db.auditLogEntry.findMany({ where: { targetId: site.id }, select: { id: true } });
    expect(entries.map((entry) => entry.id).sort()).toEqual(keptEntries.map((entry) => entry.id).sort());

    const scans = await db.scan.findMany({
      select: { id: true, checks: true, checksPrunedAt: true, overall: true, grade: true, issuesWarning: true },
    });
    const pruned = new Set([...oldFree, anonymous].map((scan) => scan.id));
    for (const scan of scans) {
      expect([scan.id, scan.checks === null]).toEqual([scan.id, pruned.has(scan.id)]);
      // the API says when a scan's list was dropped (checks_pruned_at); a kept one has none
      expect([scan.id, scan.checksPrunedAt !== null]).toEqual([scan.id, pruned.has(scan.id)]);
      expect(scan).toMatchObject({ overall: 71, grade: "B", issuesWarning: 2 });
    }
    expect(scans.find((scan) => scan.id === recentFree.id)?.checks).toEqual(CHECKS);
    expect(scans.find((scan) => scan.id === recentAnonymous.id)?.checks).toEqual(CHECKS);
    expect(scans.find((scan) => scan.id === agencyOld.id)?.checks).toEqual(CHECKS);
    const pages = await db.auditPage.findMany({ where: { auditId: audit.id } });
    for (const page of pages) expect(page).toMatchObject({ checks: null, facts: null, overall: 70 });
    expect((await db.audit.findUniqueOrThrow({ where: { id: audit.id } })).report).toEqual({ kept: true });
    // a second run finds nothing left
    expect(await pruner.prune()).toMatchObject({ scans: 0, auditPages: 0, auditLog: 0 });
  });
});
