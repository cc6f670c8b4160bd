import { type JobName, jobKindOf } from "@scan/queue";
import { type Job, UnrecoverableError } from "bullmq";

/** What runs one job; the token is BullMQ's, for a job that moves itself back to the delayed set. */
export type JobProcessor = (job: Job, token?: string) => Promise<unknown>;

/**
 * A processor for every kind of job in the queue contract (`JOB_KINDS`): a kind added there and
 * left out here does not compile.
 */
export type JobProcessors = Record<JobName, JobProcessor>;

/**
 * The one function a BullMQ worker on `queue` runs: each job goes to its kind's processor; a job
 * whose name is no kind of that queue fails at once (it would fail the same way every time).
 */
export const dispatcherFor =
  (queue: string, processors: JobProcessors) =>
  async (job: Job, token?: string): Promise<unknown> => {
    const kind = jobKindOf(queue, job.name);
    if (!kind) throw new UnrecoverableError(`no job named ${job.name} runs on the ${queue} queue`);
    return processors[kind.name as JobName](job, token);
  };
