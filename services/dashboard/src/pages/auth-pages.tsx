import { problemSentence, waitInWords } from "@scan/client";
import { type FormEvent, useEffect, useState } from "react";
import * as auth from "../auth";
import { Welcome } from "../components/layout";
import { Field, FormError, Notice, PageTitle } from "../components/ui";
import { Link, navigate, usePlace } from "../router";
import { useSession } from "../session";

/** Sign in, sign up, accept an invitation, reset a password: the pages before a session. */

/** The gateway accepts passwords of 12 to 256 characters. */
const MIN_PASSWORD = 12;
const MAX_PASSWORD = 256;

const problemText = (problem: auth.AuthProblem, what: "sign-in" | "other"): string => {
  if (problem.status === 401 && what === "sign-in") return "Wrong email or password.";
  if (problem.status === 429)
    return `Too many attempts. Try again ${problem.retryAfterS ? `in ${waitInWords(problem.retryAfterS)}` : "later"}.`;
  return problemSentence(problem.message, problem.hint);
};

/** Where to go after signing in: the page that asked for it, if it is one of ours. */
export const nextOf = (search: URLSearchParams): string => {
  const next = search.get("next");
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/scans";
};

const tokenOf = (place: { search: URLSearchParams; hash: URLSearchParams }) =>
  place.hash.get("token") ?? place.search.get("token") ?? "";

const useSubmit = () => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (event: FormEvent, action: () => Promise<string | null>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setError(await action());
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
};

export const SignIn = () => {
  const { state, refresh } = useSession();
  const place = usePlace();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { busy, error, run } = useSubmit();
  const reason = state.status === "signed-out" ? state.reason : null;
  // the form is on screen and answers input (the benchmark reads this mark)
  useEffect(() => {
    performance.mark("sign-in:interactive");
  }, []);

  const submit = (event: FormEvent) =>
    run(event, async () => {
      const result = await auth.signIn(email, password);
      if (!result.ok) return problemText(result.problem, "sign-in");
      await refresh();
      navigate(nextOf(place.search), { replace: true });
      return null;
    });

  return (
    <Welcome>
      <PageTitle>Sign in</PageTitle>
      {reason ? <Notice kind="info">{reason}</Notice> : null}
      <form onSubmit={submit} noValidate={false}>
        <Field label="Email">
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <FormError error={error} />
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p className="small">
        New here? <Link to={withNext("/sign-up", place.search)}>Create an account</Link>. Forgot your password? Ask an
        operator of this service for a reset link.
      </p>
    </Welcome>
  );
};

const NewPassword = ({
  value,
  onChange,
  label = "Password",
}: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
}) => (
  <Field label={label} hint={`${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`}>
    {(props) => (
      <input
        {...props}
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD}
        maxLength={MAX_PASSWORD}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    )}
  </Field>
);

/** A link to sign in or up that keeps the page to come back to. */
const withNext = (to: string, search: URLSearchParams): string => {
  const next = search.get("next");
  return next ? `${to}?next=${encodeURIComponent(next)}` : to;
};

export const SignUp = ({
  invitation,
  invitedEmail,
  next = "/scans",
}: {
  invitation?: string;
  invitedEmail?: string;
  next?: string;
}) => {
  const { refresh } = useSession();
  const [email, setEmail] = useState(invitedEmail ?? "");
  const [password, setPassword] = useState("");
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) =>
    run(event, async () => {
      const result = await auth.signUp(email, password, invitation);
      if (!result.ok) return problemText(result.problem, "other");
      await refresh();
      navigate(next, { replace: true });
      return null;
    });

  return (
    <form onSubmit={submit}>
      <Field label="Email">
        {(props) => (
          <input
            {...props}
            type="email"
            autoComplete="username"
            required
            readOnly={Boolean(invitedEmail)}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <NewPassword value={password} onChange={setPassword} />
      <FormError error={error} />
      <button type="submit" className="button primary wide" disabled={busy}>
        {busy ? "Creating your account…" : "Create account"}
      </button>
    </form>
  );
};

export const SignUpPage = () => {
  const place = usePlace();
  return (
    <Welcome>
      <PageTitle>Create an account</PageTitle>
      <SignUp next={nextOf(place.search)} />
      <p className="small">
        Already have one? <Link to={withNext("/sign-in", place.search)}>Sign in</Link>. If this service takes new
        accounts by invitation only, open the invitation link you were sent.
      </p>
    </Welcome>
  );
};

export const AcceptInvitation = () => {
  const place = usePlace();
  const token = tokenOf(place);
  const [invited, setInvited] = useState<
    { state: "loading" } | { state: "ok"; email: string } | { state: "bad"; message: string }
  >({ state: "loading" });
  useEffect(() => {
    if (!token) {
      setInvited({ state: "bad", message: "This link has no invitation in it. Open the whole link you were sent." });
      return;
    }
    void auth.readInvitation(token).then((result) =>
      setInvited(
        result.ok
          ? { state: "ok", email: result.data.email }
          : {
              state: "bad",
              message:
                result.problem.status === 404
                  ? "This invitation is unknown, already used or expired. Ask whoever invited you for a new one."
                  : problemText(result.problem, "other"),
            },
      ),
    );
  }, [token]);

  return (
    <Welcome>
      <PageTitle>Accept your invitation</PageTitle>
      {invited.state === "loading" ? <p role="status">Reading the invitation…</p> : null}
      {invited.state === "bad" ? <Notice kind="warning">{invited.message}</Notice> : null}
      {invited.state === "ok" ? (
        <>
          <p>Choose a password for {invited.email}.</p>
          <SignUp invitation={token} invitedEmail={invited.email} />
        </>
      ) : null}
      <p className="small">
        Already have an account? <Link to="/sign-in">Sign in</Link>.
      </p>
    </Welcome>
  );
};

export const ResetPassword = () => {
  const place = usePlace();
  const token = tokenOf(place);
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState(false);
  const { busy, error, run } = useSubmit();

  const submit = (event: FormEvent) =>
    run(event, async () => {
      if (password !== again) return "The two passwords differ.";
      const result = await auth.resetPassword(token, password);
      if (!result.ok)
        return result.problem.status === 404 || result.problem.status === 400
          ? `${problemText(result.problem, "other")} A reset link works once and for a limited time; ask for a new one if this one has expired.`
          : problemText(result.problem, "other");
      setDone(true);
      return null;
    });

  return (
    <Welcome>
      <PageTitle>Reset your password</PageTitle>
      {!token ? (
        <Notice kind="warning">
          This page needs the reset link an operator of this service gives you. Ask them for one, then open the whole
          link.
        </Notice>
      ) : done ? (
        <Notice kind="success">
          Your password is changed. <Link to="/sign-in">Sign in</Link> with the new one.
        </Notice>
      ) : (
        <form onSubmit={submit}>
          <NewPassword value={password} onChange={setPassword} label="New password" />
          <Field label="New password, again">
            {(props) => (
              <input
                {...props}
                type="password"
                autoComplete="new-password"
                required
                value={again}
                onChange={(e) => setAgain(e.target.value)}
              />
            )}
          </Field>
          <FormError error={error} />
          <button type="submit" className="button primary wide" disabled={busy}>
            {busy ? "Saving…" : "Set the new password"}
          </button>
        </form>
      )}
    </Welcome>
  );
};
