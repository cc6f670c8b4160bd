import { randomUUID } from "node:crypto";
import type { Db } from "@scan/db";
import type { Job } from "bullmq";
import pino from "pino";
import { createScanGate } from "../domain/scan-gate";
import { createVisibilitySampleJob, type VisibilitySampleDeps } from "./visibility-sample.job";

/** A pause that never ends by itself: only a scan settling lets a held step go on. */
const never = () => new Promise<void>(() => {});
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a visibility sample's job and the scan gate", () => {
  it("reads and claims its sample only once the scan in progress has ended", async () => {
    const events: string[] = [];
    const gate = createScanGate({
      readLoad: async () => ({ waiting: 0, active: gate.active }),
      cacheMs: 100,
      maxWaitMs: 2_000,
      sleep: never,
    });
    // the job's database, as far as a sample that is gone reaches it: each read is an event
    const db = {
      visibilitySample: {
        findUnique: async () => {
          events.push("sample read");
          return null;
        },
      },
    } as unknown as Db;
    const deps = {
      db,
      box: null,
      engines: {},
      perEngine: 2,
      attempts: 5,
      backoffMs: 1_000,
      budgetByPlan: { free: 0, starter: null, pro: null, agency: null },
      projectedUsage: { inputTokens: 1, outputTokens: 1, searchCalls: 1 },
      timeoutMs: 1_000,
      queueSample: async () => {},
      giveWay: async (step: string) => {
        events.push(`gives way: ${step}`);
        await gate.giveWay(step);
      },
      log: pino({ level: "silent" }),
    } as unknown as VisibilitySampleDeps;
    const job = { data: { runId: randomUUID(), sampleId: randomUUID() } } as unknown as Job;

    let endScan = () => {};
    const scan = gate.during(
      () =>
        new Promise<void>((resolve) => {
          events.push("scan started");
          endScan = () => {
            events.push("scan ended");
            resolve();
          };
        }),
    );
    const sample = createVisibilitySampleJob(deps)(job).then(() => events.push("sample done"));
    await flush();
    await flush();
    expect(events).toEqual(["scan started", "gives way: claim"]);

    endScan();
    await Promise.all([scan, sample]);
    expect(events).toEqual(["scan started", "gives way: claim", "scan ended", "sample read", "sample done"]);
  });
});
