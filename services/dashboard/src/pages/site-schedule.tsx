import { type AuditScheduleView, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useState } from "react";
import { Confirm } from "../components/confirm";
import { Empty, Field, FormError, MaxPagesField, Notice } from "../components/ui";
import { formatDateTime, formatUntil } from "../format";
import { asProblem } from "../load";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";

type Frequency = AuditScheduleView["frequency"];
type Mode = AuditScheduleView["mode"];

const ScheduleSummary = ({ schedule }: { schedule: AuditScheduleView }) => (
  <>
    <dl className="facts schedule-facts">
      <div>
        <dt>Audits</dt>
        <dd>
          {schedule.frequency === "daily" ? "Daily" : "Weekly"}, {schedule.mode}, up to {schedule.max_pages} pages
        </dd>
      </div>
      <div>
        <dt>Next run</dt>
        <dd>
          {schedule.next_run_at
            ? `${formatDateTime(schedule.next_run_at)} (${formatUntil(schedule.next_run_at)})`
            : "being queued again"}
          <span className="muted small"> · cron {schedule.pattern} UTC</span>
        </dd>
      </div>
      <div>
        <dt>Last run</dt>
        <dd>{formatDateTime(schedule.last_run_at)}</dd>
      </div>
      {schedule.include.length + schedule.exclude.length > 0 ? (
        <div>
          <dt>Paths</dt>
          <dd className="small">
            {schedule.include.length > 0 ? `only ${schedule.include.join(", ")}` : ""}
            {schedule.include.length > 0 && schedule.exclude.length > 0 ? "; " : ""}
            {schedule.exclude.length > 0 ? `never ${schedule.exclude.join(", ")}` : ""}
          </dd>
        </div>
      ) : null}
    </dl>
    <AlertSummary schedule={schedule} />
    <p>
      {schedule.report_emails.length > 0 ? (
        <>
          The client report (PDF) of each scheduled audit is mailed to{" "}
          <span className="url">{schedule.report_emails.join(", ")}</span>, whether or not it got worse.
        </>
      ) : (
        "No client report is mailed: download it from each audit's report."
      )}
    </p>
  </>
);

/** Where the schedule's regression alerts go, one line per channel. */
const AlertSummary = ({ schedule }: { schedule: AuditScheduleView }) => {
  const channels = [
    ...(schedule.alert_emails.length > 0
      ? [{ key: "email", label: "Mail to", to: schedule.alert_emails.join(", ") }]
      : []),
    ...(schedule.alert_slack_url ? [{ key: "slack", label: "Slack", to: schedule.alert_slack_url }] : []),
    ...(schedule.alert_url ? [{ key: "webhook", label: "Signed webhook to", to: schedule.alert_url }] : []),
  ];
  if (channels.length === 0) return <p>No alerts: the schedule mails no one and posts nowhere.</p>;
  return (
    <>
      <p>
        When an audit's overall score falls {schedule.alert_drop} points or more, its grade drops, or a check starts
        failing, alerts go to:
      </p>
      <ul className="alert-channels">
        {channels.map((channel) => (
          <li key={channel.key}>
            {channel.label} <span className="url">{channel.to}</span>
          </li>
        ))}
      </ul>
    </>
  );
};

/** "a@x.example, b@y.example" as the list the API takes; blanks between commas are dropped. */
const emailList = (text: string): string[] =>
  text
    .split(/[,;\s]+/)
    .map((address) => address.trim())
    .filter((address) => address !== "");

const ScheduleForm = ({
  siteId,
  current,
  onSaved,
}: {
  siteId: string;
  current: AuditScheduleView | null;
  onSaved: (schedule: AuditScheduleView, created: boolean) => void;
}) => {
  const api = useApi();
  const [frequency, setFrequency] = useState<Frequency>(current?.frequency ?? "weekly");
  const [mode, setMode] = useState<Mode>(current?.mode ?? "full");
  const [maxPages, setMaxPages] = useState(current ? String(current.max_pages) : "");
  const [alertUrl, setAlertUrl] = useState(current?.alert_url ?? "");
  const [alertEmails, setAlertEmails] = useState(current?.alert_emails.join(", ") ?? "");
  const [reportEmails, setReportEmails] = useState(current?.report_emails.join(", ") ?? "");
  // the stored Slack URL is shown masked; sent back unchanged, the API keeps it
  const [slackUrl, setSlackUrl] = useState(current?.alert_slack_url ?? "");
  const [alertDrop, setAlertDrop] = useState(String(current?.alert_drop ?? 5));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const {
        data,
        error: failed,
        response,
      } = await api.POST("/api/v1/sites/{id}/schedule", {
        params: { path: { id: siteId } },
        body: {
          frequency,
          mode,
          ...(maxPages.trim() === "" ? {} : { max_pages: Number(maxPages) }),
          ...(alertUrl.trim() === "" ? {} : { alert_url: alertUrl.trim() }),
          alert_emails: emailList(alertEmails),
          report_emails: emailList(reportEmails),
          ...(slackUrl.trim() === "" ? {} : { alert_slack_url: slackUrl.trim() }),
          alert_drop: Number(alertDrop),
          // patterns set through the API are kept: this form does not edit them
          include: current?.include ?? [],
          exclude: current?.exclude ?? [],
        },
      });
      onSaved(dataOf({ data, error: failed, response }), response.status === 201);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="schedule-form-title">
      <h3 id="schedule-form-title">{current ? "Change the schedule" : "Audit this site on a schedule"}</h3>
      <div className="form-row">
        <Field label="How often">
          {(props) => (
            <select {...props} value={frequency} onChange={(e) => setFrequency(e.target.value as Frequency)}>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
            </select>
          )}
        </Field>
        <Field label="Audit mode">
          {(props) => (
            <select {...props} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
              <option value="full">Full (57 checks per page)</option>
              <option value="quick">Quick (20 checks per page)</option>
            </select>
          )}
        </Field>
        <MaxPagesField label="Most pages per audit" value={maxPages} onChange={setMaxPages} />
      </div>
      <fieldset className="alert-fields">
        <legend>Client report after every scheduled audit</legend>
        <Field
          label="Mail the client report to"
          hint="Optional: e-mail addresses, separated by commas (up to 10). Each scheduled audit's PDF report, in your agency's name and logo, is mailed to them, whether or not the site got worse."
        >
          {(props) => (
            <input
              {...props}
              type="text"
              inputMode="email"
              autoComplete="off"
              placeholder="owner@client.example"
              value={reportEmails}
              onChange={(e) => setReportEmails(e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <fieldset className="alert-fields">
        <legend>Alerts when an audit is worse than the one before (any, all or none)</legend>
        <div className="form-row">
          <Field
            label="Mail to"
            hint="Optional: e-mail addresses, separated by commas (up to 10). The mail names the site, says what got worse and links to the audit."
          >
            {(props) => (
              <input
                {...props}
                type="text"
                inputMode="email"
                autoComplete="off"
                placeholder="seo@agency.example, client@shop.example"
                value={alertEmails}
                onChange={(e) => setAlertEmails(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Slack incoming webhook"
            hint={
              current?.alert_slack_url
                ? "Shown masked: leave it as it is to keep it, clear it to stop posting to Slack, or paste a new one."
                : "Optional: the https://hooks.slack.com/services/… URL from your Slack app's Incoming Webhooks page."
            }
          >
            {(props) => (
              <input
                {...props}
                type="text"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://hooks.slack.com/services/…"
                value={slackUrl}
                onChange={(e) => setSlackUrl(e.target.value)}
              />
            )}
          </Field>
        </div>
        <div className="form-row">
          <Field
            label="Signed webhook URL"
            hint="Optional, for programs: receives a POST signed with the deployment's WEBHOOK_SECRET."
          >
            {(props) => (
              <input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://hooks.example.com/seo"
                value={alertUrl}
                onChange={(e) => setAlertUrl(e.target.value)}
              />
            )}
          </Field>
          <Field label="Alert on a fall of" hint="Points of the overall score, 1 to 100.">
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                max={100}
                required
                inputMode="numeric"
                value={alertDrop}
                onChange={(e) => setAlertDrop(e.target.value)}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Saving…" : "Save schedule"}
      </button>
    </form>
  );
};

/**
 * The site's audit schedule: what it runs and when, its alerts; set, change or stop it. The
 * schedule comes with the site's own read (null when there is none), and each change answers
 * the schedule as it now is, so the page never asks for a schedule that may not exist.
 */
export const SiteSchedule = ({ siteId, initial }: { siteId: string; initial: AuditScheduleView | null }) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [said, setSaid] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [current, setCurrent] = useState(initial);
  useEffect(() => setCurrent(initial), [initial]);
  return (
    <>
      {said ? <Notice kind="success">{said}</Notice> : null}
      {current ? (
        <>
          <ScheduleSummary schedule={current} />
          {canWrite ? (
            <button type="button" className="button secondary small" onClick={() => setDeleting(true)}>
              Stop the schedule
            </button>
          ) : null}
        </>
      ) : (
        <Empty title="No schedule: the site is audited only when you start an audit.">
          {canWrite ? (
            <p>
              Choose how often below; a mail, a Slack message or a signed webhook tells you when an audit finds the site
              worse than before.
            </p>
          ) : null}
        </Empty>
      )}
      {canWrite ? (
        <ScheduleForm
          key={current?.updated_at ?? "new"}
          siteId={siteId}
          current={current}
          onSaved={(saved, created) => {
            setSaid(
              `${created ? "Scheduled" : "Schedule changed"}: ${saved.frequency} ${saved.mode} audits${
                saved.next_run_at ? `, next ${formatDateTime(saved.next_run_at)}` : ""
              }.`,
            );
            setCurrent(saved);
          }}
        />
      ) : null}
      <Confirm
        open={deleting}
        title="Stop auditing this site on a schedule?"
        keepLabel="Keep the schedule"
        actLabel="Stop the schedule"
        busyLabel="Stopping…"
        act={async () => {
          dataOf(await api.DELETE("/api/v1/sites/{id}/schedule", { params: { path: { id: siteId } } }));
        }}
        onClose={(acted) => {
          setDeleting(false);
          if (acted) {
            setSaid("The schedule is stopped. Its audits stay.");
            setCurrent(null);
          }
        }}
      >
        <p>No more audits will start on their own, and no more alerts will be sent. The audits it ran stay.</p>
      </Confirm>
    </>
  );
};
