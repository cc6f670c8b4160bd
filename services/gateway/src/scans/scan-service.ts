import type { Db } from "@scan/db";
import type { Logger } from "pino";
import type { Admission } from "./admission";
import { createBatchSubmit } from "./scan-batches";
import { createScanIntake, type ScanIntakeDeps } from "./scan-intake";
import { createScanReader } from "./scan-reader";
import { createScanSubmit } from "./scan-submission";
import type { ScanWaiter } from "./scan-waiter";

export type ScanServiceDeps = ScanIntakeDeps & {
  db: Db;
  waiter: ScanWaiter;
  waitMs: number;
  /** refuses waiting callers whose scan cannot finish in their budget; null: no admission control */
  admission: Admission | null;
  log: Logger;
};

/**
 * Creates, queues, waits for and reads scans. The scan row, not the job, is the record.
 * A scan alone (scan-submission) or in a batch (scan-batches) goes through the same intake
 * (scan-intake: vetting, quota, priority, queue); reading is scan-reader's.
 */
export const createScanService = ({ db, waiter, waitMs, admission, log, ...intakeDeps }: ScanServiceDeps) => {
  const intake = createScanIntake({ db, ...intakeDeps });
  const { submit, resume } = createScanSubmit({ db, intake, waiter, waitMs, admission, log });
  return {
    submit,
    resume,
    submitBatch: createBatchSubmit({ intake, log }),
    /** the address policy every URL the service will fetch passes: a site's too, as its pages are scanned */
    assertScannable: intake.assertScannable,
    /** a URL the service will POST to (callbacks, alerts): public, resolvable, and signable (WEBHOOK_SECRET set) */
    vetCallback: intake.vetCallback,
    /** the same address rules for any URL the service will POST to, whatever signs it */
    vetDeliveryUrl: intake.vetDeliveryUrl,
    ...createScanReader({ db }),
  };
};

export type ScanService = ReturnType<typeof createScanService>;
