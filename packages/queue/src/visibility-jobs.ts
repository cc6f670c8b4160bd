import { z } from "zod";
import { VISIBILITY_SAMPLE_PRIORITY } from "./priority";

/** The jobs of a visibility run, on the scan queue (its workers, below its scans and audits in priority). */
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

/** A sample's job: the lowest priority on the queue. */
export const visibilitySampleJob = (payload: VisibilitySamplePayload) => ({
  name: VISIBILITY_JOBS.sample,
  data: payload,
  opts: {
    jobId: visibilitySampleJobId(payload.sampleId),
    priority: VISIBILITY_SAMPLE_PRIORITY,
    attempts: VISIBILITY_JOB.attempts,
    backoff: { type: "exponential", delay: VISIBILITY_JOB.backoffMs },
    removeOnComplete: VISIBILITY_JOB.keepCompleted,
    removeOnFail: VISIBILITY_JOB.keepFailed,
  },
});
