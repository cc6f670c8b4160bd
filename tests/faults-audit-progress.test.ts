import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount } from "./support/accounts";
import { comparedPage as page } from "./support/audit-site";
import { startQuickAudit } from "./support/audit-start";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually, startWorkerProcess, type WorkerProcess } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * An audit's progress counts live work only: two worker processes each run one page of a slow
 * site (the host's limit is 2); one is killed (SIGKILL). Its page's row still says running
 * until its job is handed to the other worker, but `progress.running` drops it at once and
 * counts it as queued, so the audit never shows more pages running than the host's limit, and
 * it completes with every page counted once.
 */

const PAGES = 6;
const PAGE_DELAY_MS = 4_000;

type Json = Record<string, any>;

describe("audit progress after a worker is killed", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    const links = Array.from({ length: PAGES }, (_, i) => `/p/${i + 1}`);
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const send = () =>
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(`Page ${path}`, links));
      if (path === "/") return send();
      if (path.startsWith("/p/")) return void setTimeout(send, PAGE_DELAY_MS).unref();
      res.writeHead(404).end("not found");
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      worker: false,
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
    await stopContainers();
  });

  it("drops the dead worker's page from running at once, and completes", async () => {
    const workerEnv = {
      DATABASE_URL: database.url,
      REDIS_URL: await testRedisUrl(),
      QUEUE_PREFIX: stack.prefix,
      SCAN_ALLOWLIST: site.hostPort,
      LOG_LEVEL: "info",
      WORKER_CONCURRENCY: "1",
      SCAN_TIMEOUT_MS: "10000",
      AUDIT_HOST_CONCURRENCY: "2",
    };
    const workers: WorkerProcess[] = [];
    try {
      workers.push(await startWorkerProcess(workerEnv), await startWorkerProcess(workerEnv));
      const { key } = await createAccount(stack.db, "agency");
      const { auditId } = await startQuickAudit(stack.gateway.url, key, site.url("/"));
      const progress = async (): Promise<Json> =>
        ((await api(stack.gateway.url, `/api/v1/audits/${auditId}`, { headers: { "x-api-key": key } })).body as Json)
          .data.progress;
      const runningRows = () => stack.db.auditPage.count({ where: { auditId, status: "running" } });

      // a slow page on each worker
      await eventually(
        async () => (await runningRows()) === 2 && (await progress()).running === 2,
        60_000,
        "two pages running",
      );
      workers[0]?.process.kill("SIGKILL");
      // its row still says running, but it is no live work: counted as queued
      await eventually(
        async () => {
          const [shown, rows] = [await progress(), await runningRows()];
          return rows === 2 && shown.running === 1;
        },
        8_000,
        "the dead worker's page to leave running while its row still says so",
      );
      // and never more running than the host's limit, until the audit completes
      let most = 0;
      await eventually(
        async () => {
          most = Math.max(most, (await progress()).running);
          const audit = await stack.db.audit.findUniqueOrThrow({ where: { id: auditId } });
          return audit.status === "completed";
        },
        120_000,
        "the audit to complete",
      );
      expect(most).toBeLessThanOrEqual(2);
      expect(await progress()).toEqual({
        discovered: PAGES + 1,
        queued: 0,
        running: 0,
        scanned: PAGES + 1,
        failed: 0,
        blocked: 0,
        cancelled: 0,
      });
    } finally {
      for (const worker of workers) worker.process.kill("SIGKILL");
    }
  }, 180_000);
});
