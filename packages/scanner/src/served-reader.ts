import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { ServedReadAnswer, ServedReadRequest } from "./served-reader.thread";

/**
 * The main content of a full scan's HTML as served (what raw-html-content compares with the
 * render) is read on a thread of its own while Chromium renders the page, rather than on the
 * worker's main thread after it: that reading is half the checks' work, and the main thread
 * must stay free to answer the render's requests. One thread per process, started on first use;
 * readings queue on it. A reading that fails, or a thread that dies or takes longer than the
 * scan's budget, answers nothing, and the checks then read the served HTML themselves: the
 * verdict is the same either way. A thread that fails before its first answer (its file cannot
 * be loaded, as under a test runner that compiles TypeScript only on the main thread) is not
 * started again.
 */
export type ServedReader = {
  /** the served main content's text, or undefined when the thread could not read it */
  read: (rawHtml: string) => Promise<string | undefined>;
  close: () => Promise<void>;
};

/** The thread's file: compiled beside the bundle (services/worker/dist), or the source under tsx. */
const threadFile = (): string => {
  const compiled = join(__dirname, "served-reader.thread.js");
  return existsSync(compiled) ? compiled : join(__dirname, "served-reader.thread.ts");
};

type Pending = { resolve: (text: string | undefined) => void; timer: NodeJS.Timeout };

export const createServedReader = ({
  timeoutMs,
  file = threadFile(),
}: {
  timeoutMs: number;
  /** the thread's script (served-reader.thread.ts compiled, or run under tsx) */
  file?: string;
}): ServedReader => {
  let thread: Worker | null = null;
  let answered = false;
  let usable = true;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const settle = (id: number, text: string | undefined) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(text);
  };

  // a thread that failed takes its readings with it; the next reading starts a new one
  const drop = (failed: Worker, { broken }: { broken: boolean }) => {
    if (thread !== failed) return;
    thread = null;
    if (broken && !answered) usable = false;
    for (const id of [...pending.keys()]) settle(id, undefined);
    failed.terminate().catch(() => undefined);
  };

  const start = (): Worker => {
    // the thread runs with the process's own flags (under tsx: its loader), idle it keeps nothing alive
    const started = new Worker(file);
    started.unref();
    started.on("message", (answer: ServedReadAnswer) => {
      answered = true;
      settle(answer.id, "text" in answer ? answer.text : undefined);
    });
    started.on("error", () => drop(started, { broken: true }));
    started.on("exit", () => drop(started, { broken: true }));
    return started;
  };

  return {
    read: (rawHtml) => {
      if (!usable) return Promise.resolve(undefined);
      let running: Worker;
      try {
        thread ??= start();
        running = thread;
      } catch {
        return Promise.resolve(undefined);
      }
      const id = nextId++;
      return new Promise((resolve) => {
        // a thread stuck on one page is replaced: the scan reads that page itself
        const timer = setTimeout(() => drop(running, { broken: false }), timeoutMs);
        timer.unref();
        pending.set(id, { resolve, timer });
        running.postMessage({ id, rawHtml } satisfies ServedReadRequest);
      });
    },
    close: async () => {
      const running = thread;
      thread = null;
      for (const id of [...pending.keys()]) settle(id, undefined);
      await running?.terminate();
    },
  };
};
