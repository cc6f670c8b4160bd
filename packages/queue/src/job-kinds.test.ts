import { AUDIT_JOBS, auditPageJob, auditScheduler, auditStepJob } from "./audit-jobs";
import { JOB_KINDS, jobKindOf } from "./job-kinds";
import { SCAN_JOB, SCAN_QUEUE, scanJob } from "./scan-job";
import { VISIBILITY_JOBS, VISIBILITY_QUEUE, visibilitySampleJob } from "./visibility-jobs";
import { ALERT_JOB, REPORT_MAIL_JOB, reportMailJobId, WEBHOOK_JOB, WEBHOOK_QUEUE } from "./webhook-job";

const scanId = "5b0c3c1e-8a53-4a4e-9d1f-6f7a2b9c0d11";
const auditId = "0f4c7a52-3d7e-4b8a-9c61-2e5d8f1a7b90";
const pageId = "9a1e2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b";
const siteId = "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e0f";

describe("the job kinds", () => {
  it("name each kind once per queue", () => {
    const keys = JOB_KINDS.map((kind) => `${kind.queue}/${kind.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("hold every job the catalogue names, on the queue it is added to", () => {
    const onScans = [SCAN_JOB.name, ...Object.values(AUDIT_JOBS)];
    const onVisibility = Object.values(VISIBILITY_JOBS);
    const onWebhooks = [WEBHOOK_JOB.name, ALERT_JOB.name, REPORT_MAIL_JOB.name];
    for (const name of onScans) expect(jobKindOf(SCAN_QUEUE, name)).toBeDefined();
    for (const name of onVisibility) expect(jobKindOf(VISIBILITY_QUEUE, name)).toBeDefined();
    for (const name of onWebhooks) expect(jobKindOf(WEBHOOK_QUEUE, name)).toBeDefined();
    expect(JOB_KINDS).toHaveLength(onScans.length + onVisibility.length + onWebhooks.length);
  });

  it("take a report mail by its audit's id, once per audit", () => {
    const kind = jobKindOf(WEBHOOK_QUEUE, REPORT_MAIL_JOB.name);
    expect(kind?.payload.safeParse({ auditId }).success).toBe(true);
    expect(kind?.payload.safeParse({ alertId: auditId }).success).toBe(false);
    expect(reportMailJobId(auditId)).toBe(`report-mail-${auditId}`);
  });

  it("know no job by another queue's name", () => {
    expect(jobKindOf(WEBHOOK_QUEUE, SCAN_JOB.name)).toBeUndefined();
    expect(jobKindOf(SCAN_QUEUE, WEBHOOK_JOB.name)).toBeUndefined();
    expect(jobKindOf(SCAN_QUEUE, "no-such-job")).toBeUndefined();
    // a sample on the scan queue is not the scan workers': it would hold a scan slot for its engine's whole answer
    expect(jobKindOf(SCAN_QUEUE, VISIBILITY_JOBS.sample)).toBeUndefined();
    expect(jobKindOf(VISIBILITY_QUEUE, SCAN_JOB.name)).toBeUndefined();
  });

  it("queue a sample once per row, in the order samples were queued (no priority)", () => {
    const sampleId = "7d6c5b4a-3e2f-4a1b-8c9d-0e1f2a3b4c5d";
    const sample = visibilitySampleJob({ runId: auditId, sampleId });
    expect(sample.opts.jobId).toBe(`visibility-sample-${sampleId}`);
    expect(sample.opts).not.toHaveProperty("priority");
    expect(jobKindOf(VISIBILITY_QUEUE, sample.name)?.payload.safeParse(sample.data).success).toBe(true);
    expect(VISIBILITY_QUEUE).not.toBe(SCAN_QUEUE);
  });

  it("accept the payload of every job the builders make, and refuse another kind's", () => {
    const built = [
      scanJob({ id: scanId, url: "https://example.com/", mode: "full", requestId: "r1", keepSnapshot: true }, 3),
      auditStepJob("discover", { auditId }),
      auditStepJob("report", { auditId, requestId: "r2" }),
      auditPageJob({ auditId, pageId, url: "https://example.com/a", mode: "quick" }),
      auditScheduler({ siteId, frequency: "weekly" }).template,
    ];
    for (const job of built) {
      const kind = jobKindOf(SCAN_QUEUE, job.name);
      expect(kind?.payload.safeParse(job.data).success).toBe(true);
    }
    expect(jobKindOf(SCAN_QUEUE, AUDIT_JOBS.page)?.payload.safeParse({ auditId }).success).toBe(false);
    expect(jobKindOf(WEBHOOK_QUEUE, ALERT_JOB.name)?.payload.safeParse({ scanId }).success).toBe(false);
  });
});
