import { randomUUID } from "node:crypto";
import { AppError, type ScanAccepted, type ScanMode } from "@scan/contract";
import type { Db, Scan } from "@scan/db";
import type { Logger } from "pino";
import type { AccountCaller } from "../access/authenticate";
import type { BoundResource } from "../access/idempotency-store";
import { newScanAccess } from "../access/scan-access";
import type { Tx } from "../access/user-lock";
import type { Admission } from "./admission";
import type { NewScan, OnStored, ScanIntake } from "./scan-intake";
import { isTerminal } from "./scan-reader";
import type { ScanWaiter } from "./scan-waiter";

export type ScanSubmissionDeps = {
  db: Db;
  intake: ScanIntake;
  waiter: ScanWaiter;
  waitMs: number;
  /** refuses waiting callers whose scan cannot finish in their budget; null: no admission control */
  admission: Admission | null;
  log: Logger;
};

/**
 * What the caller of a stored scan is told: the finished row, or, when the scan is still on
 * its way or its row cannot be read now (the database away), what was accepted (`id`, `url`,
 * `mode`, `status`), from which it polls. `accessToken`: the token of an anonymous scan's
 * access link (scan-access.ts); null for a key holder's scan.
 */
export type SubmittedScan = { accessToken: string | null } & (
  | { finished: true; scan: Scan }
  | { finished: false; scan: ScanAccepted }
);

export type ScanSubmission = {
  url: string;
  mode: ScanMode;
  requestId: string;
  callbackUrl?: string;
  respondAsync?: boolean;
  budgetMs?: number;
  keepSnapshot?: boolean;
  /** binds the scan to the request's Idempotency-Key, in the transaction that stores it */
  bind?: (resource: BoundResource, tx: Tx) => Promise<void>;
};

/** How a stored scan is waited for and answered, by its first request or a retry with its key. */
type Awaited = {
  accepted: ScanAccepted;
  accessToken: string | null;
  budgetMs: number;
  respondAsync: boolean;
  signal: AbortSignal;
  /** settles once the scan is queued, or was not (false): the reaper queues it from its row */
  queued: Promise<boolean>;
};

/**
 * Stores and queues a scan, then waits for it up to the budget, or not at all when the
 * caller asked to be answered at once (`Prefer: respond-async`). A waiting caller whose scan
 * cannot finish within its budget (`budgetMs`, at most SCAN_WAIT_MS) is refused with 429
 * before anything is stored. Once the row is stored nothing fails the request: a queue that
 * cannot take the job, or a database that goes away during the wait, answers what was
 * accepted (202 with the scan's id), and the worker's reaper runs the scan from its row.
 */
export const createScanSubmit = ({ db, intake, waiter, waitMs, admission, log }: ScanSubmissionDeps) => {
  const answer = async ({ accepted, accessToken, budgetMs, respondAsync, signal, queued }: Awaited) => {
    const finished = respondAsync ? Promise.resolve(false) : waiter.wait(accepted.id, budgetMs, signal);
    // the queue away: the wait goes on, as the reaper may queue the scan from its row within the budget
    if (!(await queued))
      log.warn({ scanId: accepted.id }, "scan stored but not queued: the reaper queues it once the queue is back");
    await finished;
    try {
      // read the row whatever woke us: the events are best effort, the row is the truth
      const stored = await db.scan.findUniqueOrThrow({ where: { id: accepted.id } });
      if (stored.status === "completed" && stored.startedAt && stored.completedAt) {
        admission?.record(stored.mode, stored.completedAt.getTime() - stored.startedAt.getTime());
      }
      if (isTerminal(stored)) return { finished: true, scan: stored, accessToken } satisfies SubmittedScan;
      const { id, url, mode, status } = stored;
      return { finished: false, scan: { id, url, mode, status }, accessToken } satisfies SubmittedScan;
    } catch (error) {
      log.warn(
        { scanId: accepted.id, err: error instanceof Error ? error.message : String(error) },
        "stored scan not read back: answered as accepted",
      );
      return { finished: false, scan: accepted, accessToken } satisfies SubmittedScan;
    }
  };

  const submit = async (
    input: ScanSubmission,
    owner: AccountCaller | null,
    signal: AbortSignal,
  ): Promise<SubmittedScan> => {
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
    // an anonymous maker reads its scan by a link only it was given
    const access = owner ? null : newScanAccess();
    const accessToken = access?.token ?? null;
    const scan: NewScan = {
      id: randomUUID(),
      url: input.url,
      mode: input.mode,
      requestId: input.requestId,
      ...(input.keepSnapshot ? { keepSnapshot: true } : {}),
      ...(access ? { accessTokenHash: access.hash } : {}),
    };
    const { bind } = input;
    const onStored: OnStored | undefined = bind && ((tx) => bind({ scans: [scan.id], accessToken }, tx));
    const priorities = await intake.storeWithPriorities([scan], owner, callbackUrl, onStored);
    // stored: from here on the caller is told the scan's id, whatever fails
    return answer({
      accepted: { id: scan.id, url: scan.url, mode: scan.mode, status: "queued" },
      accessToken,
      budgetMs,
      respondAsync: input.respondAsync ?? false,
      signal,
      queued: intake.enqueue([scan], priorities),
    });
  };

  /**
   * Answers a scan an earlier request with the same Idempotency-Key stored (its answer was lost
   * to an outage, a time-out or a restart): waited for as the first request would have, nothing
   * stored or counted again.
   */
  const resume = (
    input: Pick<ScanSubmission, "url" | "mode" | "respondAsync" | "budgetMs">,
    resource: BoundResource,
    signal: AbortSignal,
  ): Promise<SubmittedScan> => {
    const [id] = resource.scans;
    if (!id) throw new Error("an Idempotency-Key bound to no scan");
    return answer({
      // the key's request is this one's (same body), so the scan is of this URL and mode
      accepted: { id, url: input.url, mode: input.mode, status: "queued" },
      accessToken: resource.accessToken,
      budgetMs: Math.min(waitMs, input.budgetMs ?? waitMs),
      respondAsync: input.respondAsync ?? false,
      signal,
      queued: Promise.resolve(true),
    });
  };

  return { submit, resume };
};
