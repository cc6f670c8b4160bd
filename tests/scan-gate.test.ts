import { randomUUID } from "node:crypto";
import { AUDIT_PAGE_PRIORITY, auditPageJob, SCAN_QUEUE, scanJob } from "@scan/queue";
import { createScanGate, scanQueueLoad } from "@scan/worker";
import { type Job, Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { eventually } from "./support/outages";
import { stopContainers, testRedisUrl, uniquePrefix } from "./support/services";

/**
 * The samples' scan gate against real Redis: what it reads of the scan queue (interactive scans
 * waiting, audit pages left out, scan jobs running in any worker), and a sample step held while a
 * scan runs in another worker, let go when that scan ends.
 */

describe("the scan gate on a real scan queue", () => {
  let connection: Redis;
  let blocking: Redis;
  let queue: Queue;
  let worker: Worker | null = null;

  beforeAll(async () => {
    const url = await testRedisUrl();
    connection = new Redis(url, { maxRetriesPerRequest: null });
    blocking = new Redis(url, { maxRetriesPerRequest: null });
    queue = new Queue(SCAN_QUEUE, { connection, prefix: uniquePrefix() });
  }, 300_000);

  afterAll(async () => {
    await worker?.close(true);
    await queue?.obliterate({ force: true });
    await queue?.close();
    connection?.disconnect();
    blocking?.disconnect();
    await stopContainers();
  });

  const scan = () => scanJob({ id: randomUUID(), url: "https://example.com/", mode: "quick" }, 1);
  const page = () =>
    auditPageJob({ auditId: randomUUID(), pageId: randomUUID(), url: "https://example.com/a", mode: "quick" });

  it("counts interactive scans waiting and running, not audit pages, and holds a step until the scan ends", async () => {
    expect(await scanQueueLoad(queue)).toEqual({ waiting: 0, running: [] });
    for (const job of [page(), page()]) await queue.add(job.name, job.data, job.opts);
    expect(page().opts.priority).toBe(AUDIT_PAGE_PRIORITY);
    expect(await scanQueueLoad(queue)).toEqual({ waiting: 0, running: [] });
    const first = scan();
    await queue.add(first.name, first.data, first.opts);
    expect(await scanQueueLoad(queue)).toEqual({ waiting: 1, running: [] });

    // another worker takes the scan and holds it until told to end it
    const events: string[] = [];
    let endScan = () => {};
    const started = new Promise<void>((resolve) => {
      worker = new Worker(
        SCAN_QUEUE,
        async (job: Job) =>
          new Promise<void>((done) => {
            events.push(`${job.name} started`);
            resolve();
            endScan = () => {
              events.push(`${job.name} ended`);
              done();
            };
          }),
        { connection: blocking, prefix: queue.opts.prefix, concurrency: 1 },
      );
    });
    await started;
    expect(await scanQueueLoad(queue)).toEqual({ waiting: 0, running: [first.opts.jobId] });

    const gate = createScanGate({ readLoad: () => scanQueueLoad(queue), cacheMs: 20, maxWaitMs: 60_000 });
    const step = gate.giveWay("store").then(() => events.push("sample stored"));
    // the step looks again every 20 ms; the scan runs on until the step has looked several times
    for (let looks = 0; looks < 5; looks += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(events).toEqual(["scan started"]);

    endScan();
    await step;
    // the worker goes on to the audit pages, which a sample does not wait for
    expect(events.filter((event) => !event.startsWith("audit-page"))).toEqual([
      "scan started",
      "scan ended",
      "sample stored",
    ]);
    await eventually(async () => events.includes("audit-page started"), 10_000, "the worker to take an audit page");
    expect(await scanQueueLoad(queue)).toEqual({ waiting: 0, running: [] });
    const waited: string[] = [];
    const later = createScanGate({
      readLoad: () => scanQueueLoad(queue),
      cacheMs: 20,
      maxWaitMs: 60_000,
      onWaited: (step) => waited.push(step),
    });
    await later.giveWay("claim");
    expect(waited).toEqual([]);
    endScan();
  }, 60_000);
});
