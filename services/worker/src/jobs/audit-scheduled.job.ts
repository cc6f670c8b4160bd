import { AuditScheduledPayload, auditSchedulerId, auditStepJob } from "@scan/queue";
import { schedules } from "@scan/records";
import { type Job, UnrecoverableError } from "bullmq";
import { type AuditJobDeps, stringList } from "./audit-steps";

/**
 * A schedule came due: an audit of the site as the schedule says, unless one of the site's
 * audits is still under way (it is skipped, not queued behind it) or this very firing already
 * started one (a job run twice). A schedule deleted meanwhile removes its scheduler.
 */
export const createAuditScheduledJob =
  ({ db, queue, log }: AuditJobDeps) =>
  async (job: Job): Promise<void> => {
    const parsed = AuditScheduledPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad schedule payload: ${parsed.error.message}`);
    const { siteId } = parsed.data;
    const schedule = await db.auditSchedule.findUnique({
      where: { siteId },
      include: { site: { select: { url: true } } },
    });
    if (!schedule) {
      await queue.removeJobScheduler(auditSchedulerId(siteId));
      return;
    }
    const firing = `schedule-${job.id ?? job.timestamp}`;
    const start = await schedules.startScheduledAudit(db, schedule, {
      startUrl: `${schedule.site.url}/`,
      include: stringList.parse(schedule.include),
      exclude: stringList.parse(schedule.exclude),
      requestId: firing,
    });
    if (!start.started) {
      if (start.reason === "busy") log.info({ siteId }, "scheduled audit skipped: an audit of the site is under way");
      if (start.reason === "quota")
        log.info({ siteId }, "scheduled audit skipped: the site's client's audit quota is used up");
      return;
    }
    const { audit } = start;
    const step = auditStepJob("discover", { auditId: audit.id });
    await queue.add(step.name, step.data, step.opts);
    log.info({ siteId, auditId: audit.id }, "scheduled audit started");
  };
