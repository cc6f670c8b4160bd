import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { useState } from "react";
import { Shell, Welcome } from "../components/layout";
import { Notice, PageTitle } from "../components/ui";
import { asProblem } from "../load";
import { Link, navigate, usePlace } from "../router";
import { useApi, useSession } from "../session";
import { ROLE_NAMES, useWorkspaces } from "../workspace";

/**
 * The page an invitation's link opens (`/app/workspace-invitation#token=…`, the path the gateway
 * writes into it). Signed in, it accepts the invitation for the signed-in user; signed out, it
 * offers to sign in or to create an account and comes back here with the token.
 */

type Joined = DataOf<"acceptWorkspaceInvitation">;

const TITLE = "Join a workspace";

const tokenOf = (place: { search: URLSearchParams; hash: URLSearchParams }) =>
  place.hash.get("token") ?? place.search.get("token") ?? "";

const NO_TOKEN = "This link has no invitation in it. Open the whole link you were sent.";

const SignedOut = ({ token }: { token: string }) => {
  // the token rides in the fragment of the page to come back to, never in a request
  const back = encodeURIComponent(`/workspace-invitation#token=${encodeURIComponent(token)}`);
  return (
    <Welcome>
      <PageTitle>{TITLE}</PageTitle>
      {token ? (
        <>
          <p>
            You are invited to work in a workspace. Sign in, or create an account, with the email address the invitation
            was sent to; you come back here to accept it.
          </p>
          <p className="invitation-choices">
            <Link to={`/sign-in?next=${back}`} className="button primary">
              Sign in
            </Link>
            <Link to={`/sign-up?next=${back}`} className="button secondary">
              Create an account
            </Link>
          </p>
        </>
      ) : (
        <Notice kind="warning">{NO_TOKEN}</Notice>
      )}
    </Welcome>
  );
};

const SignedIn = ({ token, email }: { token: string; email: string }) => {
  const api = useApi();
  const { current, reload, switchTo } = useWorkspaces();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState<Joined | null>(null);

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const workspace = dataOf(await api.POST("/api/v1/workspaces/invitations/accept", { body: { token } }));
      setJoined(workspace);
      void reload();
    } catch (failure) {
      const problem = asProblem(failure);
      setError(
        problem.status === 404
          ? `${problemSentence(problem.message, problem.hint)} An invitation works once, for 7 days, until it is revoked: ask whoever invited you for a new one.`
          : problemSentence(problem.message, problem.hint),
      );
    } finally {
      setBusy(false);
    }
  };

  const switchToJoined = async () => {
    if (!joined) return;
    setBusy(true);
    try {
      await switchTo(joined.id);
      navigate("/sites");
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
      setBusy(false);
    }
  };

  return (
    <Shell>
      <PageTitle>{TITLE}</PageTitle>
      {!token ? <Notice kind="warning">{NO_TOKEN}</Notice> : null}
      {token && !joined ? (
        <section className="card" aria-labelledby="accept-title">
          <h2 id="accept-title">Accept the invitation</h2>
          <p>
            You are signed in as <strong>{email}</strong>. The invitation works only for the email address it was sent
            to. Accepting makes you a member of its workspace with the role it gives; you stay in the workspace you are
            in{current ? ` (${current.name})` : ""} until you switch.
          </p>
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="button" className="button primary" disabled={busy} onClick={() => void accept()}>
            {busy ? "Accepting…" : "Accept the invitation"}
          </button>
        </section>
      ) : null}
      {joined ? (
        <section className="card" aria-labelledby="joined-title">
          <h2 id="joined-title">You joined {joined.name}</h2>
          <Notice kind="success">
            You are a member of {joined.name}, as {ROLE_NAMES[joined.role].toLowerCase()}.
          </Notice>
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <p className="invitation-choices">
            <button type="button" className="button primary" disabled={busy} onClick={() => void switchToJoined()}>
              {busy ? "Switching…" : `Switch to ${joined.name}`}
            </button>
            <Link to="/scans" className="button secondary">
              Stay in {current?.name ?? "this workspace"}
            </Link>
          </p>
        </section>
      ) : null}
    </Shell>
  );
};

export const WorkspaceInvitation = () => {
  const { state } = useSession();
  const token = tokenOf(usePlace());
  return state.status === "signed-in" ? (
    <SignedIn token={token} email={state.user.email} />
  ) : (
    <SignedOut token={token} />
  );
};
