import { z } from "zod";

/**
 * The queue of visibility samples, apart from the scan queue: a sample spends 2 to 20 s waiting on
 * an engine's answer, and a BullMQ slot is held for the whole wait, so on the scan queue (at any
 * priority) samples took the slots scans and audit pages run in. Its own workers, with their own
 * concurrency, leave every scan slot to scans. Renaming it strands the samples queued in it (the
 * visibility sweep queues them again from their rows).
 */
export const VISIBILITY_QUEUE = "visibility";

/** The jobs of a visibility run, on the visibility queue. */
export const VISIBILITY_JOBS = {
  /** one engine asked one prompt once, and the answer stored */
  sample: "visibility-sample",
} as const;

export const VISIBILITY_JOB = {
  /**
   * BullMQ's own attempts: a job that throws is taken again after an exponential backoff. The
   * sample's row counts what was asked of the engine; the job fails the sample once its row has
   * had `VISIBILITY_SAMPLE_ATTEMPTS` attempts (worker config), so this only bounds crashes.
   */
  attempts: 8,
  backoffMs: 2_000,
  keepCompleted: { age: 3600, count: 5000 },
  keepFailed: { age: 24 * 3600, count: 5000 },
} as const;

export const VisibilitySamplePayload = z.object({ runId: z.uuid(), sampleId: z.uuid() });
export type VisibilitySamplePayload = z.infer<typeof VisibilitySamplePayload>;

/** The id of a sample's job: one per sample row, so a sample is queued once however often it is queued again. */
export const visibilitySampleJobId = (sampleId: string) => `visibility-sample-${sampleId}`;

/** A sample's job, on VISIBILITY_QUEUE: no priority, so samples run in the order they were queued. */
export const visibilitySampleJob = (payload: VisibilitySamplePayload) => ({
  name: VISIBILITY_JOBS.sample,
  data: payload,
  opts: {
    jobId: visibilitySampleJobId(payload.sampleId),
    attempts: VISIBILITY_JOB.attempts,
    backoff: { type: "exponential", delay: VISIBILITY_JOB.backoffMs },
    removeOnComplete: VISIBILITY_JOB.keepCompleted,
    removeOnFail: VISIBILITY_JOB.keepFailed,
  },
});
