import { randomUUID } from "node:crypto";
import { AppError, type ScanMode } from "@scan/contract";
import type { Logger } from "pino";
import type { AccountCaller } from "../access/authenticate";
import type { BoundResource } from "../access/idempotency-store";
import type { Tx } from "../access/user-lock";
import type { NewScan, ScanIntake } from "./scan-intake";

export type BatchSubmission = {
  urls: readonly string[];
  mode: ScanMode;
  requestId: string;
  callbackUrl?: string;
  /** binds the scans to the request's Idempotency-Key, in the transaction that stores them */
  bind?: (resource: BoundResource, tx: Tx) => Promise<void>;
};

/** A scan of the batch as its caller is told of it: queued, to be polled or called back. */
export type BatchScan = { id: string; url: string; mode: ScanMode };

/**
 * Stores and queues many scans at once, all or none: every URL is checked first (the first
 * one at fault is named by its index), then the quota is checked for all of them. Callers
 * poll each scan or give a callback_url; nobody waits here. Once they are stored the caller
 * is told their ids, whether or not the queue took them (the reaper queues them from their
 * rows when it could not).
 */
export const createBatchSubmit =
  ({ intake, log }: { intake: ScanIntake; log: Logger }) =>
  async (input: BatchSubmission, owner: AccountCaller): Promise<BatchScan[]> => {
    const refusals = await Promise.all(
      input.urls.map((url, i) =>
        intake.assertScannable(url).then(
          () => null,
          (error: unknown) => {
            if (error instanceof AppError) return `urls[${i}]: ${error.message}`;
            throw error;
          },
        ),
      ),
    );
    const refused = refusals.filter((reason): reason is string => reason !== null);
    if (refused.length > 0) {
      throw new AppError(
        "invalid_request",
        refused.slice(0, 5).join("; "),
        "Scan public http(s) addresses; private, loopback and reserved addresses are refused.",
      );
    }
    const callbackUrl = input.callbackUrl === undefined ? null : await intake.vetCallback(input.callbackUrl);
    const scans: NewScan[] = input.urls.map((url) => ({
      id: randomUUID(),
      url,
      mode: input.mode,
      requestId: input.requestId,
    }));
    const { bind } = input;
    const ids = scans.map((scan) => scan.id);
    const priorities = await intake.storeWithPriorities(
      scans,
      owner,
      callbackUrl,
      bind && ((tx) => bind({ scans: ids, accessToken: null }, tx)),
    );
    if (!(await intake.enqueue(scans, priorities)))
      log.warn({ scans: ids.length }, "batch stored but not queued: the reaper queues it once the queue is back");
    return scans.map(({ id, url, mode }) => ({ id, url, mode }));
  };

/**
 * The scans of a batch an earlier request with the same Idempotency-Key stored: the same
 * request (same body), so the same URLs in the same order.
 */
export const resumeBatch = (input: Pick<BatchSubmission, "urls" | "mode">, resource: BoundResource): BatchScan[] =>
  input.urls.flatMap((url, i) => {
    const id = resource.scans[i];
    return id ? [{ id, url, mode: input.mode }] : [];
  });
