import { auditPrintJob, type ReportRenderer, readReportBranding } from "@scan/client-reports";
import type { Db } from "@scan/db";
import { redactText } from "@scan/platform";
import { ReportMailJobPayload } from "@scan/queue";
import { type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";

/** What sends a report mail: nodemailer's transport over the operator's SMTP_URL. */
export type ReportMailer = {
  sendMail: (mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  }) => Promise<unknown>;
};

export type ReportMailDeps = {
  db: Db;
  /** SMTP_URL's transport; null when the operator set none: the mail then fails saying so */
  mailer: ReportMailer | null;
  /** ALERT_FROM */
  from: string;
  /** DASHBOARD_URL: the mail links to the audit under it */
  dashboardUrl: string;
  /** prints the audit's client report from the dashboard's print view */
  renderer: Pick<ReportRenderer, "pdf">;
  log: Logger;
};

const whyOf = (error: unknown) => redactText(error instanceof Error ? error.message : String(error)).slice(0, 300);

/**
 * Mails a scheduled audit's client report to the schedule's `report_emails`: a delivery, not a
 * warning, so it goes whether or not the audit regressed, under a subject of its own (`Client
 * report: …`; an alert's says `got worse`). The PDF is the one the gateway serves for the audit
 * (@scan/client-reports), in the workspace's name and logo. A PDF that cannot be made (no
 * Chromium, no dashboard build, a print view that fails) does not hold the mail back: it goes
 * without the attachment, saying where to download the report, and the log says why. An SMTP
 * refusal is retried by the queue; a permanent one (5xx) is not.
 */
export const createReportMailProcessor =
  ({ db, mailer, from, dashboardUrl, renderer, log }: ReportMailDeps) =>
  async (job: Job): Promise<{ auditId: string; sent: boolean; attached: boolean }> => {
    const parsed = ReportMailJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`bad report mail payload: ${parsed.error.message}`);
    const { auditId } = parsed.data;
    const audit = await db.audit.findUnique({
      where: { id: auditId },
      select: {
        id: true,
        status: true,
        siteId: true,
        workspaceId: true,
        startUrl: true,
        mode: true,
        grade: true,
        overall: true,
      },
    });
    if (audit?.status !== "completed") return { auditId, sent: false, attached: false };
    // read when the mail goes: addresses removed from the schedule since the audit started get nothing
    const schedule = await db.auditSchedule.findUnique({
      where: { siteId: audit.siteId },
      select: { reportEmails: true },
    });
    if (!schedule || schedule.reportEmails.length === 0) return { auditId, sent: false, attached: false };
    if (!mailer) throw new UnrecoverableError("report mail not sent: the operator has not set SMTP_URL");
    const jobLog = log.child({ auditId, siteId: audit.siteId, recipients: schedule.reportEmails.length });

    let pdf: Buffer | null = null;
    try {
      const print = await auditPrintJob(db, auditId, new Date());
      if (!print) throw new Error("the audit has no report");
      pdf = await renderer.pdf(print);
    } catch (error) {
      jobLog.warn({ reason: whyOf(error) }, "client report PDF not made; the report mail goes without it");
    }

    const brand = await readReportBranding(db, audit.workspaceId);
    const agency = brand?.branding.agency_name ?? brand?.branding.workspace_name ?? "";
    const host = new URL(audit.startUrl).host;
    const grade = audit.grade ?? "–";
    const link = `${dashboardUrl.replace(/\/$/, "")}/sites/${audit.siteId}?audit=${audit.id}`;
    const text = [
      `The ${audit.mode} audit of ${host} is complete: grade ${grade}${audit.overall === null ? "" : `, overall score ${audit.overall}`}.`,
      "",
      pdf
        ? "The client report is attached as a PDF."
        : "The client report could not be attached this time; download it from the audit's page.",
      "",
      `Open the audit: ${link}`,
      ...(agency ? ["", `— ${agency}`] : []),
    ].join("\n");
    try {
      await mailer.sendMail({
        from,
        to: schedule.reportEmails.join(", "),
        subject: `Client report: ${host}, grade ${grade}`,
        text,
        ...(pdf
          ? {
              attachments: [{ filename: `audit-${audit.id}-report.pdf`, content: pdf, contentType: "application/pdf" }],
            }
          : {}),
      });
    } catch (error) {
      const code = (error as { responseCode?: unknown } | null)?.responseCode;
      const why = `report mail not accepted: ${whyOf(error)}`;
      jobLog.warn({ reason: why }, "client report mail not sent");
      if (typeof code === "number" && code >= 500) throw new UnrecoverableError(why);
      throw new Error(why);
    }
    jobLog.info({ attached: pdf !== null, bytes: pdf?.length ?? 0 }, "client report mailed");
    return { auditId, sent: true, attached: pdf !== null };
  };
