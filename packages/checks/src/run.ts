import type { CheckResult, Snapshot } from "@scan/contract";
import { type CheckDefinition, toResult } from "./check";
import { profiled } from "./lib/profile";
import { type Page, preparePage } from "./page";
import { checksFor } from "./registry";

export type RunOptions = {
  mode: "quick" | "full";
  scannedAt: Date;
  only?: readonly CheckDefinition[];
  /** the snapshot already prepared (parsed) by the caller, who reads it too: it is not parsed twice */
  page?: Page;
};

/**
 * Runs the mode's checks over one snapshot. A check that throws is a bug in that check, not
 * in the page: it is reported as a skip saying so, and the other checks still run.
 */
export const runChecks = (snapshot: Snapshot, { mode, scannedAt, only, page: prepared }: RunOptions): CheckResult[] => {
  const page = prepared ?? preparePage(snapshot, scannedAt);
  return (only ?? checksFor(mode)).map((check) => {
    try {
      return toResult(
        check,
        profiled(`check ${check.id}`, () => check.run(page)),
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return toResult(check, { status: "skip", description: `The check could not run on this page: ${reason}` });
    }
  });
};
