import { type ApiProblem, dataOf, type ScanClient, type StoredScan } from "@scan/client";
import { useEffect, useState } from "react";
import { asProblem } from "./load";
import { followProgress } from "./progress";

/**
 * How often a scan is asked about when its progress stream cannot be had (refused: this user
 * has too many open; or a proxy that breaks streams). Reads are on the session's own budget,
 * never the plan's, and this keeps them few.
 */
export const FALLBACK_POLL_MS = 3_000;

export type LiveScan =
  | { state: "loading"; scan: StoredScan | null }
  | { state: "error"; scan: StoredScan | null; problem: ApiProblem }
  | { state: "done"; scan: StoredScan };

export const finished = (scan: { status: string }) => scan.status === "completed" || scan.status === "failed";

/** A problem worth asking again about: the network, a wait the server asked for, the server itself. */
const passing = (problem: ApiProblem) => problem.status === 0 || problem.status === 429 || problem.status >= 500;

/**
 * A stored scan, followed until it has completed or failed: pushed by its progress stream
 * (queued → running → completed | failed, the last event holding the whole report). When the
 * stream is refused, one GET says why (a 404, a rate limit, a session that ended: the page
 * shows that cause), and a scan still under way is then asked about every few seconds.
 */
export const useLiveScan = (api: ScanClient, id: string, onFinished?: (scan: StoredScan) => void): LiveScan => {
  const [live, setLive] = useState<LiveScan>({ state: "loading", scan: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: onFinished is read when the scan finishes, not a reason to start over
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: StoredScan | null = null;
    /** shows the scan; answers whether it has finished */
    const show = (scan: StoredScan): boolean => {
      if (stopped) return true;
      last = scan;
      if (!finished(scan)) {
        setLive({ state: "loading", scan });
        return false;
      }
      performance.mark("report:data");
      setLive({ state: "done", scan });
      onFinished?.(scan);
      return true;
    };
    const ask = async () => {
      try {
        const scan = dataOf(await api.GET("/api/v1/scan/{id}", { params: { path: { id } } }));
        if (!show(scan)) timer = setTimeout(ask, FALLBACK_POLL_MS);
      } catch (error) {
        if (stopped) return;
        const problem = asProblem(error);
        setLive({ state: "error", scan: last, problem });
        // a 404 or 401 is final; otherwise ask again once the wait the server named is over
        if (passing(problem)) timer = setTimeout(ask, Math.max(FALLBACK_POLL_MS, (problem.retryAfterS ?? 0) * 1000));
      }
    };
    const stop = followProgress("scan", id, { onState: show, onRefused: () => void ask() });
    return () => {
      stopped = true;
      stop();
      clearTimeout(timer);
    };
  }, [api, id]);
  return live;
};
