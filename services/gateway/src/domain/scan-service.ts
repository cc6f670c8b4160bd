import { randomUUID } from "node:crypto";
import type { Db, Scan } from "@scan/db/client";
import { type Resolve, vetTarget } from "@scan/shared/address-policy";
import { AppError } from "@scan/shared/errors";
import { SCAN_JOB, type ScanJobPayload, type ScanMode } from "@scan/shared/jobs";
import type { Queue } from "bullmq";
import type { ScanWaiter } from "./scan-waiter";

export type ScanServiceDeps = {
  db: Db;
  queue: Queue;
  waiter: ScanWaiter;
  allowlist: ReadonlySet<string>;
  resolve: Resolve;
  waitMs: number;
};

export type SubmittedScan = { scan: Scan; finished: boolean };

const TERMINAL = ["completed", "failed"] as const;

export const isTerminal = (scan: Pick<Scan, "status">): boolean =>
  (TERMINAL as readonly string[]).includes(scan.status);

/** Which of these scans have finished: the waiter's fallback when an event is missed. */
export const terminalScansAmong =
  (db: Db) =>
  async (ids: readonly string[]): Promise<ReadonlySet<string>> => {
    const rows = await db.scan.findMany({
      where: { id: { in: [...ids] }, status: { in: [...TERMINAL] } },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  };

/** Creates, queues, waits for and reads scans. The scan row, not the job, is the record. */
export const createScanService = ({ db, queue, waiter, allowlist, resolve, waitMs }: ScanServiceDeps) => {
  /** Refuses private and reserved targets before anything is stored or queued. */
  const assertScannable = async (url: string): Promise<void> => {
    const verdict = await vetTarget(new URL(url), allowlist, resolve);
    // a name that does not resolve is the target's failure, reported by the scan itself (502)
    if (!verdict.allowed && !verdict.reason.startsWith("unresolvable")) {
      throw new AppError(
        "invalid_request",
        `url is not scannable: ${verdict.reason}`,
        "Scan a public http(s) address; private, loopback and reserved addresses are refused.",
      );
    }
  };

  const submit = async (
    input: { url: string; mode: ScanMode; requestId: string },
    signal: AbortSignal,
  ): Promise<SubmittedScan> => {
    await assertScannable(input.url);
    const id = randomUUID();
    await db.scan.create({
      data: { id, url: input.url, mode: input.mode, status: "queued", requestId: input.requestId },
    });
    const finished = waiter.wait(id, waitMs, signal);
    const payload: ScanJobPayload = { scanId: id, url: input.url, mode: input.mode, requestId: input.requestId };
    try {
      await queue.add(SCAN_JOB.name, payload, {
        jobId: id,
        attempts: SCAN_JOB.attempts,
        backoff: { type: "fixed", delay: SCAN_JOB.backoffMs },
        removeOnComplete: SCAN_JOB.keepCompleted,
        removeOnFail: SCAN_JOB.keepFailed,
      });
    } catch {
      await db.scan.update({
        where: { id },
        data: {
          status: "failed",
          errorCode: "service_unavailable",
          errorMessage: "The scan queue was unavailable",
          completedAt: new Date(),
        },
      });
      throw new AppError("service_unavailable", "The scan queue is unavailable", "Try again in a few seconds.");
    }
    await finished;
    // read the row whatever woke us: the events are best effort, the row is the truth
    const scan = await db.scan.findUniqueOrThrow({ where: { id } });
    return { scan, finished: isTerminal(scan) };
  };

  const get = async (id: string): Promise<Scan> => {
    const scan = await db.scan.findUnique({ where: { id } });
    if (!scan) throw new AppError("not_found", `No scan with id ${id}`, "Use the id returned by POST /api/v1/scan.");
    return scan;
  };

  return { submit, get };
};

export type ScanService = ReturnType<typeof createScanService>;
