import { type AuditScheduleView, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useEffect, useState } from "react";
import { Confirm } from "../components/confirm";
import { Empty, Field, FormError, MaxPagesField, Notice } from "../components/ui";
import { formatDateTime, formatUntil } from "../format";
import { asProblem } from "../load";
import { useApi } from "../session";

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
    <p>
      {schedule.alert_url ? (
        <>
          Alerts go to <span className="url">{schedule.alert_url}</span> when an audit's overall score falls{" "}
          {schedule.alert_drop} points or more, its grade drops, or a check starts failing.
        </>
      ) : (
        "No alerts: the schedule has no alert URL."
      )}
    </p>
  </>
);

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
              <option value="full">Full (53 checks per page)</option>
              <option value="quick">Quick (20 checks per page)</option>
            </select>
          )}
        </Field>
        <MaxPagesField label="Most pages per audit" value={maxPages} onChange={setMaxPages} />
      </div>
      <div className="form-row">
        <Field
          label="Alert URL"
          hint="Optional: receives a signed POST when an audit is worse than the one before. Empty: no alerts."
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
          <button type="button" className="button secondary small" onClick={() => setDeleting(true)}>
            Stop the schedule
          </button>
        </>
      ) : (
        <Empty title="No schedule: the site is audited only when you start an audit.">
          <p>Choose how often below; an alert URL is told when an audit finds the site worse than before.</p>
        </Empty>
      )}
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
