import { randomUUID } from "node:crypto";
import { AppError, type ScanMode } from "@scan/contract";
import type { Db, Scan } from "@scan/db";
import type { Admission } from "./admission";
import type { AccountCaller } from "./authenticate";
import type { NewScan, ScanIntake } from "./scan-intake";
import { isTerminal } from "./scan-reader";
import type { ScanWaiter } from "./scan-waiter";

export type ScanSubmissionDeps = {
  db: Db;
  intake: ScanIntake;
  waiter: ScanWaiter;
  waitMs: number;
  /** refuses waiting callers whose scan cannot finish in their budget; null: no admission control */
  admission: Admission | null;
};

export type SubmittedScan = { scan: Scan; finished: boolean };

export type ScanSubmission = {
  url: string;
  mode: ScanMode;
  requestId: string;
  callbackUrl?: string;
  respondAsync?: boolean;
  budgetMs?: number;
  keepSnapshot?: boolean;
};

/**
 * Stores and queues a scan, then waits for it up to the budget, or not at all when the
 * caller asked to be answered at once (`Prefer: respond-async`). A waiting caller whose scan
 * cannot finish within its budget (`budgetMs`, at most SCAN_WAIT_MS) is refused with 429
 * before anything is stored.
 */
export const createScanSubmit =
  ({ db, intake, waiter, waitMs, admission }: ScanSubmissionDeps) =>
  async (input: ScanSubmission, owner: AccountCaller | null, signal: AbortSignal): Promise<SubmittedScan> => {
    await intake.assertScannable(input.url);
    const callbackUrl = input.callbackUrl === undefined ? null : await intake.vetCallback(input.callbackUrl);
    const budgetMs = Math.min(waitMs, input.budgetMs ?? waitMs);
    if (!input.respondAsync && admission) {
      const verdict = await admission.decide(input.mode, budgetMs);
      if (!verdict.admit) {
        throw new AppError(
          "rate_limited",
          `The scan queue is too long for a result within ${Math.round(budgetMs / 1000)} s (expected in about ${Math.ceil(verdict.predictedMs / 1000)} s)`,
          "Retry later, or send Prefer: respond-async to queue the scan and poll for it.",
          { "Retry-After": String(verdict.retryAfterS) },
        );
      }
    }
    const scan: NewScan = {
      id: randomUUID(),
      url: input.url,
      mode: input.mode,
      requestId: input.requestId,
      ...(input.keepSnapshot ? { keepSnapshot: true } : {}),
    };
    const priorities = await intake.storeWithPriorities([scan], owner, callbackUrl);
    const finished = input.respondAsync ? Promise.resolve(false) : waiter.wait(scan.id, budgetMs, signal);
    await intake.enqueue([scan], priorities, callbackUrl);
    await finished;
    // read the row whatever woke us: the events are best effort, the row is the truth
    const stored = await db.scan.findUniqueOrThrow({ where: { id: scan.id } });
    if (stored.status === "completed" && stored.startedAt && stored.completedAt) {
      admission?.record(stored.mode, stored.completedAt.getTime() - stored.startedAt.getTime());
    }
    return { scan: stored, finished: isTerminal(stored) };
  };
