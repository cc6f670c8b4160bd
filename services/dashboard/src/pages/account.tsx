import { dataOf } from "@scan/client";
import { type FormEvent, useState } from "react";
import * as auth from "../auth";
import { Shell } from "../components/layout";
import { Field, Loading, Notice, PageTitle, Problem } from "../components/ui";
import { formatDateTime, formatNumber, formatUntil } from "../format";
import { useLoad } from "../load";
import { useApi, useSession, useUser } from "../session";

const PLAN_NAME: Record<string, string> = { free: "Free", starter: "Starter", pro: "Pro", agency: "Agency" };

/** How much of an allowance is used, as a meter and in words. */
const Use = ({ label, used, limit, note }: { label: string; used: number; limit: number | null; note: string }) => (
  <div className="use">
    <p className="use-label">{label}</p>
    {limit === null ? (
      <p>
        <strong>{formatNumber(used)}</strong> used, no limit.
      </p>
    ) : (
      <>
        <meter
          min={0}
          max={limit}
          low={limit * 0.7}
          high={limit * 0.9}
          optimum={0}
          value={Math.min(used, limit)}
          aria-label={label}
        />
        <p>
          <strong>{formatNumber(used)}</strong> of {formatNumber(limit)} used, {formatNumber(Math.max(0, limit - used))}{" "}
          left.
        </p>
      </>
    )}
    <p className="muted small">{note}</p>
  </div>
);

const ChangePassword = () => {
  const { refresh } = useSession();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    const answer = await auth.changePassword(current, next);
    setBusy(false);
    if (answer.ok) {
      // the change rotates this session (a new cookie and CSRF token) and ends the others
      await refresh();
      setCurrent("");
      setNext("");
      setResult({ ok: true, text: "Your password is changed; your other sessions are signed out." });
    } else {
      setResult({
        ok: false,
        text: answer.problem.message,
      });
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <div className="form-row">
        <Field label="Current password">
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </Field>
        <Field label="New password" hint="12 to 256 characters.">
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="new-password"
              required
              minLength={12}
              maxLength={256}
              value={next}
              onChange={(e) => setNext(e.target.value)}
            />
          )}
        </Field>
      </div>
      {result ? <Notice kind={result.ok ? "success" : "warning"}>{result.text}</Notice> : null}
      <button type="submit" className="button secondary" disabled={busy}>
        {busy ? "Saving…" : "Change password"}
      </button>
    </form>
  );
};

export const Account = () => {
  const api = useApi();
  const user = useUser();
  const account = useLoad(async () => dataOf(await api.GET("/api/v1/account", {})), [api]);
  return (
    <Shell>
      <PageTitle
        actions={
          <button type="button" className="button secondary" onClick={() => void account.reload()}>
            Refresh
          </button>
        }
      >
        Account
      </PageTitle>
      {account.state === "error" ? <Problem problem={account.problem} retry={() => void account.reload()} /> : null}
      {account.state === "loading" && !account.data ? <Loading what="your account" /> : null}
      {account.data ? (
        <section className="card" aria-labelledby="plan-title">
          <h2 id="plan-title">{PLAN_NAME[account.data.plan] ?? account.data.plan} plan</h2>
          <p className="muted">
            Signed in as {user.email} ({user.role}).
          </p>
          <div className="uses">
            <Use
              label="Requests this hour"
              used={account.data.rateLimit.limit - account.data.rateLimit.remaining}
              limit={account.data.rateLimit.limit}
              note={`Scans, audits and other changes made here count, as over the API; reading the dashboard does not. The window resets ${formatUntil(account.data.rateLimit.reset)}.`}
            />
            {account.data.sessionReads ? (
              <Use
                label="Dashboard reads this hour"
                used={account.data.sessionReads.limit - account.data.sessionReads.remaining}
                limit={account.data.sessionReads.limit}
                note={`The dashboard's pages read on this sign-in's own budget, apart from the requests above; while it is spent, every page but this one waits. It starts again ${formatUntil(account.data.sessionReads.reset)}.`}
              />
            ) : null}
            {account.data.quota ? (
              <Use
                label="Scans this month"
                used={account.data.quota.used}
                limit={account.data.quota.limit ?? null}
                note={`The quota starts again on ${formatDateTime(account.data.quota.resetsAt)}.`}
              />
            ) : (
              <p className="muted">This service sets no monthly scan quota.</p>
            )}
          </div>
        </section>
      ) : null}
      <ChangePassword />
    </Shell>
  );
};
