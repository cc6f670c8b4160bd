import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount } from "./support/accounts";
import { buildAuditSite } from "./support/audit-site";
import { startQuickAudit } from "./support/audit-start";
import { type FixtureServer, type Handler, startFixtureServer } from "./support/fixture-server";
import {
  eventually,
  type RedisServer,
  startRedisServer,
  startWorkerProcess,
  type WorkerProcess,
} from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * An audit survives its workers and its queue: one of two worker processes is killed (SIGKILL)
 * mid-audit, then Redis is restarted empty (every job lost) while the audit runs. The audit
 * completes, with every page of the site admitted once, counted once, and the same findings a
 * quiet audit of the site gives.
 */

const PAGES = 100;
/** each page answers this late, so the audit is still running when the faults come */
const PAGE_DELAY_MS = 100;

type Json = Record<string, any>;

describe("an audit through a killed worker and a Redis restart", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let redis: RedisServer;
  let stack: Stack;
  const routes: Record<string, Handler> = {};

  beforeAll(async () => {
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const handler = routes[path];
      const answer = () => (handler ? handler(req, res) : res.writeHead(404).end("not found"));
      if (path.startsWith("/p/")) setTimeout(answer, PAGE_DELAY_MS).unref();
      else answer();
    });
    database = await createTestDatabase();
    redis = await startRedisServer();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: redis.url,
      allowlist: [site.hostPort],
      worker: false,
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await redis?.kill();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  it("completes with every page counted once and the planted defects found", async () => {
    const built = buildAuditSite(site.origin, PAGES);
    Object.assign(routes, built.routes);
    const workerEnv = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: stack.prefix,
      SCAN_ALLOWLIST: site.hostPort,
      LOG_LEVEL: "info",
      WORKER_CONCURRENCY: "2",
      SCAN_TIMEOUT_MS: "5000",
      REAPER_INTERVAL_MS: "500",
      ORPHAN_AFTER_MS: "2000",
      AUDIT_HOST_CONCURRENCY: "4",
    };
    const workers: WorkerProcess[] = [];
    try {
      workers.push(await startWorkerProcess(workerEnv), await startWorkerProcess(workerEnv));
      const { key } = await createAccount(stack.db, "agency");
      const { auditId } = await startQuickAudit(stack.gateway.url, key, site.url("/"));
      const scanned = () => stack.db.auditPage.count({ where: { auditId, status: "scanned" } });

      await eventually(async () => (await scanned()) >= 10, 60_000, "ten pages scanned");
      workers[0]?.process.kill("SIGKILL");
      const atKill = await scanned();
      await eventually(async () => (await scanned()) >= atKill + 10, 60_000, "ten more pages on the other worker");
      const before = await stack.db.auditPage.groupBy({ by: ["status"], where: { auditId }, _count: true });
      await redis.kill();
      await new Promise((done) => setTimeout(done, 2_000));
      await redis.start();
      workers.push(await startWorkerProcess(workerEnv));

      await eventually(
        async () => {
          const audit = await stack.db.audit.findUniqueOrThrow({ where: { id: auditId } });
          return audit.status === "completed" || audit.status === "failed";
        },
        120_000,
        "the audit to complete",
      );
      const answer = await api(stack.gateway.url, `/api/v1/audits/${auditId}`, { headers: { "x-api-key": key } });
      const audit = (answer.body as Json).data;
      process.stdout.write(
        `audit through faults: ${JSON.stringify(before)} when Redis went; finished ${JSON.stringify(audit.progress)}\n`,
      );
      expect(audit.status).toBe("completed");
      const rows = await stack.db.auditPage.findMany({
        where: { auditId },
        select: { url: true, status: true, requeues: true, errorMessage: true },
      });
      // the one page planted to fail is the only one failed, and for its own reason: any other says why it failed
      expect(
        rows.filter((row) => row.status === "failed").map(({ url, errorMessage }) => ({ url, errorMessage })),
      ).toEqual([{ url: site.url("/server-error"), errorMessage: `${site.url("/server-error")} answered 500` }]);
      const expected = built.paths.map((path) => site.url(path)).sort();
      expect(rows.map((row) => row.url).sort()).toEqual(expected);
      expect(audit.progress).toEqual({
        discovered: expected.length,
        queued: 0,
        running: 0,
        scanned: expected.length - 2,
        failed: 1,
        blocked: 1,
        cancelled: 0,
      });
      // jobs were lost and queued again from the rows
      expect(rows.some((row) => row.requeues > 0)).toBe(true);
      const found = (audit.report.site_checks as Json[]).flatMap((check) =>
        (check.findings as Json[]).map((finding) => `${check.id} ${finding.url}`),
      );
      expect(found.sort()).toEqual(built.planted.map((defect) => `${defect.check} ${defect.url}`).sort());
      expect(audit.report.pages_judged).toBe(
        rows.filter((row) => row.status === "scanned").length - 6, // three 4xx and three redirected pages are not judged
      );
    } finally {
      for (const worker of workers) worker.process.kill("SIGKILL");
    }
  }, 240_000);
});
