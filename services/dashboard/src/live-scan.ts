import { dataOf, type ScanClient, type StoredScan } from "@scan/client";
import { useEffect, useState } from "react";
import { asProblem } from "./load";

/** How often a scan that is not finished is asked about. */
export const POLL_MS = 1_000;

export type LiveScan =
  | { state: "loading"; scan: StoredScan | null }
  | { state: "error"; scan: StoredScan | null; message: string }
  | { state: "done"; scan: StoredScan };

export const finished = (scan: { status: string }) => scan.status === "completed" || scan.status === "failed";

/**
 * A stored scan, asked about again every second until it has completed or failed (the API
 * keeps its row up to date: queued → running → completed | failed).
 */
export const useLiveScan = (api: ScanClient, id: string, onFinished?: (scan: StoredScan) => void): LiveScan => {
  const [live, setLive] = useState<LiveScan>({ state: "loading", scan: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: onFinished is read when the scan finishes, not a reason to start over
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: StoredScan | null = null;
    const ask = async () => {
      try {
        const scan = dataOf(await api.GET("/api/v1/scan/{id}", { params: { path: { id } } }));
        if (stopped) return;
        last = scan;
        if (finished(scan)) {
          performance.mark("report:data");
          setLive({ state: "done", scan });
          onFinished?.(scan);
          return;
        }
        setLive({ state: "loading", scan });
      } catch (error) {
        if (stopped) return;
        const problem = asProblem(error);
        setLive({ state: "error", scan: last, message: problem.message });
        // a lost connection or an overloaded server is asked again; a 404 or 401 is final
        if (problem.status !== 0 && problem.status !== 429 && problem.status < 500) return;
      }
      timer = setTimeout(ask, POLL_MS);
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, id]);
  return live;
};
