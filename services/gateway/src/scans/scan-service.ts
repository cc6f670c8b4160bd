import type { PageMeta, ScanListQuery } from "@scan/contract";
import type { Db, Scan, WebhookDelivery } from "@scan/db";
import type { Logger } from "pino";
import type { AccountCaller } from "../access/authenticate";
import type { BoundResource } from "../access/idempotency-store";
import type { Admission } from "./admission";
import { type BatchScan, type BatchSubmission, createBatchSubmit } from "./scan-batches";
import { createScanIntake, type NewScan, type OnStored, type ScanIntakeDeps } from "./scan-intake";
import { createScanReader } from "./scan-reader";
import { createScanSubmit, type ScanSubmission, type SubmittedScan } from "./scan-submission";
import type { ScanWaiter } from "./scan-waiter";

export type ScanServiceDeps = ScanIntakeDeps & {
  db: Db;
  waiter: ScanWaiter;
  waitMs: number;
  /** refuses waiting callers whose scan cannot finish in their budget; null: no admission control */
  admission: Admission | null;
  log: Logger;
};

export type ScanService = {
  /** The workspace's scans (the key's or the session's), newest first, without their checks; `origins` keeps the scans of those origins' URLs. */
  list: (
    workspaceId: string,
    query: ScanListQuery,
    origins?: readonly string[],
  ) => Promise<{ scans: Array<Omit<Scan, "checks">>; meta: PageMeta }>;
  /** A scan the viewer may see (their workspace's, or an anonymous one by its access token); 404 otherwise. */
  get: (id: string, viewerWorkspaceId: string | null, accessToken?: string) => Promise<Scan>;
  /** The callback attempts of a scan, oldest first. */
  deliveries: (scanId: string) => Promise<WebhookDelivery[]>;
  /** Stores and queues a scan, then waits for it up to the budget, or not at all when asked to answer at once. */
  submit: (input: ScanSubmission, owner: AccountCaller | null, signal: AbortSignal) => Promise<SubmittedScan>;
  /** Answers the scan an earlier request with the same Idempotency-Key stored, nothing stored or counted again. */
  resume: (
    input: Pick<ScanSubmission, "url" | "mode" | "respondAsync" | "budgetMs">,
    resource: BoundResource,
    signal: AbortSignal,
  ) => Promise<SubmittedScan>;
  /** Stores and queues many scans at once, all or none; nobody waits for them here. */
  submitBatch: (input: BatchSubmission, owner: AccountCaller) => Promise<BatchScan[]>;
  /** the address policy every URL the service will fetch passes: a site's too, as its pages are scanned */
  assertScannable: (url: string) => Promise<void>;
  /** the same policy's reason for refusing a URL, or null */
  refusalOf: (url: string) => Promise<string | null>;
  /**
   * Stores scans the service starts on a caller's behalf (a run's cited pages) through the same
   * intake as any scan (the owner's monthly quota, `onStored` in the same transaction), then
   * queues them; URLs must have passed `refusalOf`. False when the queue could not take them now.
   */
  storeAndQueue: (scans: readonly NewScan[], owner: AccountCaller, onStored?: OnStored) => Promise<boolean>;
  /** a URL the service will POST to (callbacks, alerts): public, resolvable, and signable (WEBHOOK_SECRET set) */
  vetCallback: (input: string) => Promise<string>;
  /** the same address rules for any URL the service will POST to, whatever signs it */
  vetDeliveryUrl: (input: string, field: string, hint: string) => Promise<string>;
};

/**
 * Creates, queues, waits for and reads scans. The scan row, not the job, is the record.
 * A scan alone (scan-submission) or in a batch (scan-batches) goes through the same intake
 * (scan-intake: vetting, quota, priority, queue); reading is scan-reader's.
 */
export const createScanService = ({
  db,
  waiter,
  waitMs,
  admission,
  log,
  ...intakeDeps
}: ScanServiceDeps): ScanService => {
  const intake = createScanIntake({ db, ...intakeDeps });
  const { submit, resume } = createScanSubmit({ db, intake, waiter, waitMs, admission, log });
  return {
    submit,
    resume,
    submitBatch: createBatchSubmit({ intake, log }),
    /** the address policy every URL the service will fetch passes: a site's too, as its pages are scanned */
    assertScannable: intake.assertScannable,
    refusalOf: intake.refusalOf,
    storeAndQueue: async (scans, owner, onStored) => {
      const priorities = await intake.storeWithPriorities(scans, owner, null, onStored);
      return intake.enqueue(scans, priorities);
    },
    /** a URL the service will POST to (callbacks, alerts): public, resolvable, and signable (WEBHOOK_SECRET set) */
    vetCallback: intake.vetCallback,
    /** the same address rules for any URL the service will POST to, whatever signs it */
    vetDeliveryUrl: intake.vetDeliveryUrl,
    ...createScanReader({ db }),
  };
};
