import { randomUUID } from "node:crypto";
import { AppError, type ScanMode } from "@scan/contract";
import type { Db, Scan } from "@scan/db";
import type { AccountCaller } from "./authenticate";
import type { NewScan, ScanIntake } from "./scan-intake";

export type BatchSubmission = { urls: readonly string[]; mode: ScanMode; requestId: string; callbackUrl?: string };

/**
 * Stores and queues many scans at once, all or none: every URL is checked first (the first
 * one at fault is named by its index), then the quota is checked for all of them. Callers
 * poll each scan or give a callback_url; nobody waits here.
 */
export const createBatchSubmit =
  ({ db, intake }: { db: Db; intake: ScanIntake }) =>
  async (input: BatchSubmission, owner: AccountCaller): Promise<Scan[]> => {
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
    const priorities = await intake.storeWithPriorities(scans, owner, callbackUrl);
    await intake.enqueue(scans, priorities, callbackUrl);
    const rows = await db.scan.findMany({ where: { id: { in: scans.map((scan) => scan.id) } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return scans.map((scan) => byId.get(scan.id)).filter((row): row is Scan => row !== undefined);
  };
