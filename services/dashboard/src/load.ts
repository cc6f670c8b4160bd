import { type ApiProblem, ScanApiError } from "@scan/client";
import { type DependencyList, useCallback, useEffect, useRef, useState } from "react";

export type Loaded<T> =
  | { state: "loading"; data: T | null }
  | { state: "error"; problem: ApiProblem; data: T | null }
  | { state: "done"; data: T };

/** An unexpected failure (the network, a bug) as a problem the page can show. */
export const asProblem = (error: unknown): ApiProblem =>
  error instanceof ScanApiError
    ? error.problem
    : {
        status: 0,
        code: "network",
        message: "The server could not be reached.",
        hint: "Check your connection and that the service is running, then try again.",
        retryAfterS: null,
      };

/**
 * Runs `load` when the page opens and whenever `deps` change; `reload` runs it again. The data
 * already shown stays while a new load runs (no flash of an empty page between two filters).
 */
export const useLoad = <T>(load: () => Promise<T>, deps: DependencyList) => {
  const [result, setResult] = useState<Loaded<T>>({ state: "loading", data: null });
  const generation = useRef(0);
  const run = useCallback(async () => {
    const mine = ++generation.current;
    setResult((previous) => ({ state: "loading", data: previous.data }));
    try {
      const data = await load();
      if (mine === generation.current) setResult({ state: "done", data });
    } catch (error) {
      if (mine === generation.current)
        setResult((previous) => ({ state: "error", problem: asProblem(error), data: previous.data }));
    }
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  }, deps);
  useEffect(() => {
    void run();
    return () => {
      generation.current += 1;
    };
  }, [run]);
  return { ...result, reload: run };
};

/**
 * Loads again `everyMs` after each answer while `active` (something under way on the server):
 * `answered` changes with each answer. A hidden tab is not polled; it loads once it is shown again.
 */
export const useRefreshWhile = (active: boolean, reload: () => Promise<void>, answered: unknown, everyMs: number) => {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `answered` is the reason to schedule the next load
  useEffect(() => {
    if (!active) return;
    const visible = () => {
      if (document.hidden) return;
      document.removeEventListener("visibilitychange", visible);
      void reload();
    };
    const timer = setTimeout(() => {
      if (document.hidden) document.addEventListener("visibilitychange", visible);
      else void reload();
    }, everyMs);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", visible);
    };
  }, [active, reload, answered, everyMs]);
};
