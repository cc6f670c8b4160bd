import type { QueueEvents } from "bullmq";

export type TerminalCheck = (ids: readonly string[]) => Promise<ReadonlySet<string>>;

type Waiter = { resolve: (finished: boolean) => void };

/**
 * Waits for scans to finish, for any number of requests, with one QueueEvents per process.
 * A completed or failed event for a scan id wakes its waiters. Events are best effort (the
 * stream is trimmed, a reconnect can miss some), so a single timer also asks Postgres which
 * waited-for scans are finished, in one query for all of them: no finished scan is reported
 * as still running for longer than one poll interval.
 */
export class ScanWaiter {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private poller: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    events: QueueEvents,
    private readonly isTerminal: TerminalCheck,
    private readonly pollIntervalMs = 1000,
  ) {
    const wake = ({ jobId }: { jobId: string }) => this.settle(jobId, true);
    events.on("completed", wake);
    events.on("failed", wake);
  }

  /**
   * Resolves true when the scan finished, false when the budget ran out or the signal
   * aborted first. Register before enqueueing, so a scan that finishes at once is not missed.
   */
  wait(scanId: string, budgetMs: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        resolve: (finished) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          this.remove(scanId, waiter);
          resolve(finished);
        },
      };
      const onAbort = () => waiter.resolve(false);
      if (signal?.aborted) return resolve(false);
      signal?.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => waiter.resolve(false), budgetMs);
      let set = this.waiters.get(scanId);
      if (!set) {
        set = new Set();
        this.waiters.set(scanId, set);
      }
      set.add(waiter);
      this.startPolling();
    });
  }

  get pending(): number {
    return this.waiters.size;
  }

  close(): void {
    for (const id of [...this.waiters.keys()]) this.settle(id, false);
    this.stopPolling();
  }

  private settle(scanId: string, finished: boolean): void {
    const set = this.waiters.get(scanId);
    if (!set) return;
    for (const waiter of [...set]) waiter.resolve(finished);
  }

  private remove(scanId: string, waiter: Waiter): void {
    const set = this.waiters.get(scanId);
    if (!set) return;
    set.delete(waiter);
    if (set.size === 0) this.waiters.delete(scanId);
    if (this.waiters.size === 0) this.stopPolling();
  }

  private startPolling(): void {
    if (this.poller) return;
    this.poller = setInterval(() => void this.poll(), this.pollIntervalMs);
    this.poller.unref();
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  private async poll(): Promise<void> {
    if (this.polling || this.waiters.size === 0) return;
    this.polling = true;
    try {
      const done = await this.isTerminal([...this.waiters.keys()]);
      for (const id of done) this.settle(id, true);
    } catch {
      // Postgres unreachable for a moment: the events and the final read still work
    } finally {
      this.polling = false;
    }
  }
}
