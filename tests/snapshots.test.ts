import { randomBytes, randomUUID } from "node:crypto";
import { unpackSnapshot } from "@scan/contract";
import { SCAN_JOB, SCAN_QUEUE, type ScanJobPayload } from "@scan/queue";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * The worker keeps a scan's snapshot when the job asks for it (keepSnapshot): gzipped, capped,
 * until it expires; expired snapshots are deleted as new ones are stored.
 */

const PAGE = `<!doctype html><html lang="en"><head><title>Kept page</title></head>
<body><main><h1>Kept page</h1><p>This page is kept for the generators.</p></main></body></html>`;

// random text does not compress: this page stays over the 64 KiB cap gzipped
const HUGE_PAGE = `<!doctype html><title>Huge</title><p>${randomBytes(96 * 1024).toString("base64")}</p>`;

afterAll(() => stopContainers());

describe("snapshots kept for the generators", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let queue: Queue;
  let events: QueueEvents;
  let connection: Redis;
  let eventsConnection: Redis;

  beforeAll(async () => {
    site = await startFixtureServer({
      "/": html(PAGE),
      "/huge": html(HUGE_PAGE),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { SNAPSHOT_MAX_BYTES: String(64 * 1024), SNAPSHOT_RETENTION_S: "600" },
    });
    connection = new Redis(await testRedisUrl(), { maxRetriesPerRequest: null });
    queue = new Queue(SCAN_QUEUE, { connection, prefix: stack.prefix });
    // QueueEvents blocks on its own connection; BullMQ leaves a connection it was given open
    eventsConnection = connection.duplicate();
    events = new QueueEvents(SCAN_QUEUE, { connection: eventsConnection, prefix: stack.prefix });
    await events.waitUntilReady();
  }, 300_000);

  afterAll(async () => {
    await events?.close();
    await queue?.close();
    eventsConnection?.disconnect();
    connection?.disconnect();
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  /** Stores a scan row and runs its job through the real worker, as the gateway does. */
  const scan = async (path: string, keepSnapshot?: boolean) => {
    const id = randomUUID();
    await stack.db.scan.create({ data: { id, url: site.url(path), mode: "quick", status: "queued" } });
    const payload: ScanJobPayload = { scanId: id, url: site.url(path), mode: "quick", keepSnapshot };
    const job = await queue.add(SCAN_JOB.name, payload, { jobId: id, attempts: 1 });
    await job.waitUntilFinished(events, 30_000);
    return stack.db.scan.findUniqueOrThrow({ where: { id }, include: { snapshot: true } });
  };

  it("keeps nothing unless the job asks", async () => {
    const done = await scan("/");
    expect(done.status).toBe("completed");
    expect(done.snapshot).toBeNull();
  });

  it("keeps the snapshot gzipped, with its size and an expiry, before the scan is marked completed", async () => {
    const before = Date.now();
    const done = await scan("/", true);
    expect(done.status).toBe("completed");
    const kept = done.snapshot;
    expect(kept).not.toBeNull();
    if (!kept) return;
    const snapshot = await unpackSnapshot(kept.data);
    expect(snapshot.finalUrl).toBe(site.url("/"));
    expect(snapshot.rawHtml).toBe(PAGE);
    expect(snapshot.robotsTxt?.body).toBe("User-agent: *\nAllow: /\n");
    expect(kept.size).toBe(Buffer.byteLength(JSON.stringify(snapshot)));
    expect(kept.data.byteLength).toBeLessThan(kept.size);
    expect(kept.trimmed).toBe(false);
    expect(kept.expiresAt.getTime() - before).toBeGreaterThanOrEqual(600_000 - 1_000);
    expect(kept.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(600_000);
    expect(kept.createdAt.getTime()).toBeLessThanOrEqual(done.completedAt?.getTime() ?? 0);
  });

  it("does not keep a snapshot over the cap; the scan itself completes", async () => {
    const done = await scan("/huge", true);
    expect(done.status).toBe("completed");
    expect(done.snapshot).toBeNull();
  });

  it("deletes expired snapshots as it stores new ones", async () => {
    const old = await scan("/", true);
    await stack.db.scanSnapshot.update({
      where: { scanId: old.id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const fresh = await scan("/", true);
    expect(fresh.snapshot).not.toBeNull();
    expect(await stack.db.scanSnapshot.findUnique({ where: { scanId: old.id } })).toBeNull();
  });
});
