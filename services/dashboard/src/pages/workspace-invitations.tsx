import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useRef, useState } from "react";
import { Confirm } from "../components/confirm";
import { Empty, Field, FormError, Loading, Notice, Problem, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";
import { ROLE_NAMES, type WorkspaceRole, type WorkspaceView } from "../workspace";

/** A workspace's invitations: invite an email with a role, copy the link, revoke an open one. */

type Invitation = DataOf<"listWorkspaceInvitations">[number];
type CreatedInvitation = DataOf<"createWorkspaceInvitation", 201>;

const ROLES: WorkspaceRole[] = ["member", "viewer", "admin", "owner"];

const statusOf = (invitation: Invitation): "Accepted" | "Revoked" | "Expired" | "Open" => {
  if (invitation.accepted_at) return "Accepted";
  if (invitation.revoked_at) return "Revoked";
  if (Date.parse(invitation.expires_at) <= Date.now()) return "Expired";
  return "Open";
};

/** The link, shown this once: the service keeps only its fingerprint, and mail may not be set up. */
const NewLink = ({ created, onDone }: { created: CreatedInvitation; onDone: () => void }) => {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.link);
      setCopied("yes");
    } catch {
      field.current?.select();
      setCopied("failed");
    }
  };
  return (
    <section className="card new-key" aria-labelledby="new-link-title">
      <h2 id="new-link-title">Invitation for {created.email}</h2>
      <Notice kind="warning">
        Send this link to {created.email}. <strong>It will not be shown again</strong>; it works once, until{" "}
        {formatDateTime(created.expires_at)}, for that email address only. If it is lost, revoke it and invite again.
      </Notice>
      <div className="key-row">
        <label className="visually-hidden" htmlFor="new-link-value">
          Invitation link
        </label>
        <input
          id="new-link-value"
          ref={field}
          className="key-value"
          readOnly
          value={created.link}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="button primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p role="status" className="small">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? "Copying is not allowed here: the link is selected, press Ctrl+C (⌘C)."
            : ""}
      </p>
      <button type="button" className="button secondary" onClick={onDone}>
        I have sent it
      </button>
    </section>
  );
};

const Invite = ({ workspace, onCreated }: { workspace: WorkspaceView; onCreated: (c: CreatedInvitation) => void }) => {
  const api = useApi();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<WorkspaceRole>("member");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = dataOf(
        await api.POST("/api/v1/workspaces/{id}/invitations", {
          params: { path: { id: workspace.id } },
          body: { email: email.trim(), role },
        }),
      );
      setEmail("");
      setRole("member");
      onCreated(created);
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <div className="form-row">
        <Field label="Email" hint="They accept from the link with this address, signing up first if they are new.">
          {(props) => (
            <input {...props} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label="Role" hint="Viewers read only; members work; admins also manage members.">
          {(props) => (
            <select {...props} value={role} onChange={(e) => setRole(e.target.value as WorkspaceRole)}>
              {ROLES.map((option) => (
                <option key={option} value={option}>
                  {ROLE_NAMES[option]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Inviting…" : "Invite"}
      </button>
    </form>
  );
};

export const Invitations = ({ workspace }: { workspace: WorkspaceView }) => {
  const api = useApi();
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const invitations = useLoad(
    async () =>
      dataOf(
        await api.GET("/api/v1/workspaces/{id}/invitations", {
          params: { path: { id: workspace.id }, query: { limit: 100 } },
        }),
      ),
    [api, workspace.id],
  );
  return (
    <>
      {created ? (
        <NewLink created={created} onDone={() => setCreated(null)} />
      ) : (
        <Invite
          workspace={workspace}
          onCreated={(invitation) => {
            setRevoked(null);
            setCreated(invitation);
            void invitations.reload();
          }}
        />
      )}
      {revoked ? <Notice kind="success">The invitation for {revoked} is revoked.</Notice> : null}
      <section aria-labelledby="invitations-title">
        <h2 id="invitations-title">Invitations</h2>
        {invitations.state === "error" ? (
          <Problem problem={invitations.problem} retry={() => void invitations.reload()} />
        ) : null}
        {invitations.state === "loading" && !invitations.data ? <Loading what="the invitations" /> : null}
        {invitations.data && invitations.data.length === 0 ? (
          <Empty title="No invitations yet.">
            <p>Invite someone above: they get a link to join with the role you choose.</p>
          </Empty>
        ) : null}
        {invitations.data && invitations.data.length > 0 ? (
          <TableWrap label="Invitation list">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.data.map((invitation) => (
                  <tr key={invitation.id}>
                    <td>{invitation.email}</td>
                    <td>{ROLE_NAMES[invitation.role]}</td>
                    <td>{statusOf(invitation)}</td>
                    <td>{formatDateTime(invitation.created_at)}</td>
                    <td>{formatDateTime(invitation.expires_at)}</td>
                    <td>
                      {statusOf(invitation) === "Open" ? (
                        <button
                          type="button"
                          className="button danger small"
                          onClick={() => setRevoking(invitation)}
                          aria-label={`Revoke the invitation for ${invitation.email}`}
                        >
                          Revoke
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>
      <Confirm
        open={revoking !== null}
        title={`Revoke the invitation for ${revoking?.email ?? ""}?`}
        keepLabel="Keep it"
        actLabel="Revoke"
        busyLabel="Revoking…"
        act={async () => {
          if (revoking)
            dataOf(
              await api.DELETE("/api/v1/workspaces/{id}/invitations/{invitationId}", {
                params: { path: { id: workspace.id, invitationId: revoking.id } },
              }),
            );
        }}
        onClose={(acted) => {
          if (acted && revoking) {
            setRevoked(revoking.email);
            void invitations.reload();
          }
          setRevoking(null);
        }}
      >
        <p>Its link will work no more. You can invite the same address again.</p>
      </Confirm>
    </>
  );
};
