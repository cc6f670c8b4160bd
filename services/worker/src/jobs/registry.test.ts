import {
  ALERT_JOB,
  AUDIT_JOBS,
  JOB_KINDS,
  type JobName,
  SCAN_JOB,
  SCAN_QUEUE,
  VISIBILITY_JOBS,
  VISIBILITY_QUEUE,
  WEBHOOK_JOB,
  WEBHOOK_QUEUE,
} from "@scan/queue";
import { type Job, UnrecoverableError } from "bullmq";
import { dispatcherFor, type JobProcessors } from "./registry";

const jobNamed = (name: string) => ({ name, data: {} }) as unknown as Job;

/** processors that record which kind ran, and with what token */
const recording = () => {
  const ran: string[] = [];
  const processors = Object.fromEntries(
    JOB_KINDS.map((kind) => [kind.name, async (_job: Job, token?: string) => ran.push(`${kind.name}:${token ?? ""}`)]),
  ) as JobProcessors;
  return { ran, processors };
};

describe("the job registry", () => {
  it("sends each job to its kind's processor, with BullMQ's token", async () => {
    const { ran, processors } = recording();
    await dispatcherFor(SCAN_QUEUE, processors)(jobNamed(AUDIT_JOBS.page), "t1");
    await dispatcherFor(SCAN_QUEUE, processors)(jobNamed(SCAN_JOB.name));
    await dispatcherFor(WEBHOOK_QUEUE, processors)(jobNamed(ALERT_JOB.name));
    await dispatcherFor(VISIBILITY_QUEUE, processors)(jobNamed(VISIBILITY_JOBS.sample), "t2");
    expect(ran).toEqual([
      `${AUDIT_JOBS.page}:t1`,
      `${SCAN_JOB.name}:`,
      `${ALERT_JOB.name}:`,
      `${VISIBILITY_JOBS.sample}:t2`,
    ]);
  });

  it("fails at once, without retries, a job whose name is no kind of its queue", async () => {
    const { ran, processors } = recording();
    await expect(dispatcherFor(SCAN_QUEUE, processors)(jobNamed("nonsense"))).rejects.toThrow(UnrecoverableError);
    // a delivery's name on the scan queue is not a scan-queue job
    await expect(dispatcherFor(SCAN_QUEUE, processors)(jobNamed(WEBHOOK_JOB.name))).rejects.toThrow(
      `no job named ${WEBHOOK_JOB.name} runs on the ${SCAN_QUEUE} queue`,
    );
    // a sample left on the scan queue is not run in a scan slot; the visibility sweep queues it again from its row
    await expect(dispatcherFor(SCAN_QUEUE, processors)(jobNamed(VISIBILITY_JOBS.sample))).rejects.toThrow(
      UnrecoverableError,
    );
    expect(ran).toEqual([]);
  });

  it("wants a processor for every kind in the queue contract", () => {
    const { processors } = recording();
    const { [SCAN_JOB.name]: _left, ...withoutScans } = processors;
    // @ts-expect-error: a kind left out does not compile
    const incomplete: JobProcessors = withoutScans;
    expect(Object.keys(incomplete)).toHaveLength(JOB_KINDS.length - 1);
    expect(new Set(JOB_KINDS.map((kind) => kind.name as JobName)).size).toBe(JOB_KINDS.length);
  });
});
