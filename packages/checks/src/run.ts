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
 * One check over a prepared page. A check that throws is a bug in that check, not in the page:
 * it is reported as a skip saying so, and the other checks still run.
 */
const runOne = (check: CheckDefinition, page: Page): CheckResult => {
  try {
    return toResult(
      check,
      profiled(`check ${check.id}`, () => check.run(page)),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return toResult(check, { status: "skip", description: `The check could not run on this page: ${reason}` });
  }
};

/** Runs the mode's checks over one snapshot, at once. */
export const runChecks = (snapshot: Snapshot, { mode, scannedAt, only, page: prepared }: RunOptions): CheckResult[] => {
  const page = prepared ?? preparePage(snapshot, scannedAt);
  return (only ?? checksFor(mode)).map((check) => runOne(check, page));
};

/**
 * How long the checks hold the event loop before they let it run once. The checks of an ordinary
 * page take tens of milliseconds in all; those of a page of several megabytes take seconds (on a
 * loaded machine, ten times that), in which a process that also renews its jobs' locks, answers
 * its metrics and drives Chromium would answer nothing.
 */
export const CHECKS_YIELD_AFTER_MS = 50;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs the mode's checks as runChecks does, with the same results, letting the event loop run
 * between two checks whenever they have held it CHECKS_YIELD_AFTER_MS: what a long-running
 * process (the scan worker) calls, so that no scan, however large its page, holds the process
 * for longer than its costliest single check (or the shared reading that check starts).
 */
export const runChecksYielding = async (
  snapshot: Snapshot,
  { mode, scannedAt, only, page: prepared }: RunOptions,
): Promise<CheckResult[]> => {
  const page = prepared ?? preparePage(snapshot, scannedAt);
  const results: CheckResult[] = [];
  let heldFrom = performance.now();
  for (const check of only ?? checksFor(mode)) {
    results.push(runOne(check, page));
    if (performance.now() - heldFrom >= CHECKS_YIELD_AFTER_MS) {
      await nextTurn();
      heldFrom = performance.now();
    }
  }
  return results;
};
