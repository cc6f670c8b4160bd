import type { Queue } from "bullmq";

/**
 * The name of a worker as Redis lists it (CLIENT LIST through BullMQ): a named worker's
 * connection is called `<prefix>:<queue>:w:<name>`, the name it also stamps on the jobs it
 * takes (`processedBy`); null for an unnamed one.
 */
export const workerNameOf = (client: Record<string, string>): string | null => {
  const raw = client.rawname ?? "";
  const named = raw.indexOf(":w:");
  return named === -1 ? null : raw.slice(named + 3);
};

/** most page jobs looked up per read: more than any audit runs at once */
const MOST_LOOKED_UP = 200;

/** Which of these page jobs (at most 200 looked up) a live worker is running now. */
export type LiveWork = (jobIds: readonly string[]) => Promise<Set<string>>;

/**
 * Which of these jobs a live worker is running now: the job is active and the worker that took
 * it still holds its connection to Redis. A worker killed under a job drops its connection at
 * once (the kernel closes its sockets), while its job stays active until the lock expires and
 * the stalled check hands it back (up to 15 s): that job is no live work.
 */
export const createLiveWork =
  (queue: Pick<Queue, "getJob" | "getWorkers">): LiveWork =>
  async (jobIds: readonly string[]): Promise<Set<string>> => {
    const ids = jobIds.slice(0, MOST_LOOKED_UP);
    if (ids.length === 0) return new Set();
    const [clients, jobs] = await Promise.all([queue.getWorkers(), Promise.all(ids.map((id) => queue.getJob(id)))]);
    const live = new Set(clients.map(workerNameOf).filter((name): name is string => name !== null));
    const held = await Promise.all(
      jobs.map(async (job) =>
        job?.id && job.processedBy && live.has(job.processedBy) && (await job.getState()) === "active" ? job.id : null,
      ),
    );
    return new Set(held.filter((id): id is string => id !== null));
  };
