import { randomUUID } from "node:crypto";
import type { Db } from "@scan/db";
import { visibilityRuns } from "@scan/records";
import { askEngine, type EngineAnswer } from "@scan/visibility";
import type { Job } from "bullmq";
import pino from "pino";
import { flush, heldScan, localGate } from "../domain/scan-gate.fixtures";
import { createVisibilitySampleJob, type VisibilitySampleDeps } from "./visibility-sample.job";

jest.mock("@scan/records", () => ({
  ...jest.requireActual("@scan/records"),
  visibilityRuns: {
    ...jest.requireActual("@scan/records").visibilityRuns,
    claimSample: jest.fn(),
    completeSample: jest.fn(),
  },
}));
jest.mock("@scan/visibility", () => ({ ...jest.requireActual("@scan/visibility"), askEngine: jest.fn() }));

/** The job's dependencies over a database the test gives, no engine and two slots an engine unless overridden. */
const jobDeps = (db: unknown, overrides: Record<string, unknown>): VisibilitySampleDeps =>
  ({
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
    log: pino({ level: "silent" }),
    ...overrides,
  }) as unknown as VisibilitySampleDeps;

describe("a visibility sample's job and the scan gate", () => {
  it("reads and claims its sample only once the scan in progress has ended", async () => {
    const events: string[] = [];
    const gate = localGate();
    // the job's database, as far as a sample that is gone reaches it: each read is an event
    const db = {
      visibilitySample: {
        findUnique: async () => {
          events.push("sample read");
          return null;
        },
      },
    } as unknown as Db;
    const deps = jobDeps(db, {
      giveWay: async (step: string) => {
        events.push(`gives way: ${step}`);
        await gate.giveWay(step);
      },
    });
    const job = { data: { runId: randomUUID(), sampleId: randomUUID() } } as unknown as Job;

    const scan = heldScan(gate, events);
    const sample = createVisibilitySampleJob(deps)(job).then(() => events.push("sample done"));
    await flush();
    await flush();
    expect(events).toEqual(["scan started", "gives way: claim"]);

    scan.end();
    await Promise.all([scan.done, sample]);
    expect(events).toEqual(["scan started", "gives way: claim", "scan ended", "sample read", "sample done"]);
  });
});

describe("a visibility sample's engine slot", () => {
  /** flushes pending callbacks until the check holds, or gives up after a bounded number of turns */
  const until = async (check: () => boolean) => {
    for (let turn = 0; turn < 100 && !check(); turn += 1) await flush();
  };

  it("is given back once the engine has answered, while the answer's redirect links are still followed", async () => {
    const events: string[] = [];
    const following: Array<() => void> = [];
    let slow = true;
    // each sample's prompt is its own id, so the engine's answers tell the samples apart
    const sampleOf = (id: string) => ({
      id,
      status: "queued",
      engine: "gemini",
      promptText: id,
      promptLocale: null,
      run: { id: "run", status: "running", workspaceId: "w", siteId: "s", workspace: { plan: "pro" } },
    });
    const db = {
      visibilitySample: { findUnique: async ({ where }: { where: { id: string } }) => sampleOf(where.id) },
      engineKey: { findUnique: async () => null },
      site: { findUnique: async () => ({ name: "Acme", domain: "acme.com" }) },
      visibilityProfile: { findUnique: async () => null },
      competitor: { findMany: async () => [] },
    } as unknown as Db;
    jest.mocked(visibilityRuns.claimSample).mockResolvedValue({
      claimed: true,
      sample: { attempts: 1 },
    } as unknown as visibilityRuns.Claim);
    jest.mocked(visibilityRuns.completeSample).mockImplementation(async (_db, sampleId) => {
      events.push(`${names.get(sampleId)} stored`);
      return { runCompleted: false, next: null } as never;
    });
    jest.mocked(askEngine).mockImplementation(async (_config, prompt): Promise<EngineAnswer> => {
      events.push(`${names.get(prompt.text)} asked`);
      return {
        engine: "gemini",
        model: "gemini-2.5-flash",
        text: "Acme sells it.",
        citations: [
          {
            url: "https://redirect.test/1",
            rawUrl: "https://redirect.test/1",
            domain: "acme.com",
            position: 1,
            spans: [],
          },
        ],
        searchQueries: [],
        usage: { inputTokens: 1, outputTokens: 1, searchCalls: 1 },
        costUsd: 0.04,
      };
    });
    const deps = jobDeps(db, {
      engines: { gemini: { apiKey: "key", model: "gemini-2.5-flash" } },
      perEngine: 1,
      // the redirect endpoint is slow: a link is followed only when the test lets it
      redirects: {
        hosts: ["redirect.test"],
        follow: () =>
          new Promise<string | null>((resolve) => {
            events.push("redirect followed");
            following.push(() => resolve("https://acme.com/pricing"));
            if (!slow) for (const done of following.splice(0)) done();
          }),
      },
    });
    const names = new Map<string, string>();
    const jobOf = (name: string) => {
      const sampleId = randomUUID();
      names.set(sampleId, name);
      return {
        data: { runId: randomUUID(), sampleId },
        moveToDelayed: async () => {
          events.push(`${name} put back`);
        },
      } as unknown as Job;
    };
    const run = createVisibilitySampleJob(deps);

    const first = run(jobOf("first"));
    await until(() => events.includes("redirect followed"));
    expect(events).toEqual(["first asked", "redirect followed"]);

    // the one slot of the engine is free again: the second sample is asked, not put back
    const second = run(jobOf("second"));
    await until(() => events.length > 2 && events.at(-1) === "redirect followed");
    expect(events).toEqual(["first asked", "redirect followed", "second asked", "redirect followed"]);

    slow = false;
    for (const done of following.splice(0)) done();
    await Promise.all([first, second]);
    expect(events.slice(4).sort()).toEqual(["first stored", "second stored"]);

    // and neither sample kept it: a third is asked too
    await run(jobOf("third"));
    expect(events.filter((event) => event.endsWith("put back"))).toEqual([]);
    expect(events).toContain("third asked");
  }, 10_000);
});
