import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, Fragment, useEffect, useState } from "react";
import { Confirm } from "../components/confirm";
import { EngineKeys } from "../components/engine-keys";
import { Shell } from "../components/layout";
import { Rename } from "../components/rename";
import { Empty, FormError, Loading, Notice, PageTitle, Problem, TableWrap } from "../components/ui";
import { formatDateTime } from "../format";
import { asProblem, useLoad } from "../load";
import { useApi, useSession, useUser } from "../session";
import { manages, ROLE_NAMES, useWorkspaces, type WorkspaceRole, type WorkspaceView } from "../workspace";
import { ReportBranding } from "./report-branding";
import { AuditLog } from "./workspace-audit-log";
import { Clients } from "./workspace-clients";
import { Invitations } from "./workspace-invitations";

/**
 * The session's current workspace: its name, members and invitations. Owners and admins get
 * the controls; what the API still refuses (only an owner touches an owner, the last owner
 * stays, a personal workspace's own user stays its owner) is shown as the API answers it.
 */

type Member = DataOf<"listWorkspaceMembers">[number];

const ROLES: WorkspaceRole[] = ["owner", "admin", "member", "viewer"];

const READ_ONLY: Record<WorkspaceRole, string> = {
  owner: "",
  admin: "",
  member: "Only the workspace's owners and admins rename it and manage its members and invitations.",
  viewer:
    "You are a viewer here: you can read this workspace but not change it. Ask an owner or admin for another role.",
};

const RoleChange = ({
  workspace,
  member,
  onDone,
}: {
  workspace: WorkspaceView;
  member: Member;
  onDone: (message: string | null, error: string | null) => void;
}) => {
  const api = useApi();
  const [role, setRole] = useState<WorkspaceRole>(member.role);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      dataOf(
        await api.PATCH("/api/v1/workspaces/{id}/members/{userId}", {
          params: { path: { id: workspace.id, userId: member.user_id } },
          body: { role },
        }),
      );
      onDone(`${member.email} is now ${ROLE_NAMES[role].toLowerCase()}.`, null);
    } catch (failure) {
      const problem = asProblem(failure);
      setRole(member.role);
      onDone(
        null,
        `The role of ${member.email} stays ${ROLE_NAMES[member.role].toLowerCase()}: ${problemSentence(problem.message, problem.hint)}`,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="role-change" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`role-${member.user_id}`}>
        Role of {member.email}
      </label>
      <select id={`role-${member.user_id}`} value={role} onChange={(e) => setRole(e.target.value as WorkspaceRole)}>
        {ROLES.map((option) => (
          <option key={option} value={option}>
            {ROLE_NAMES[option]}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="button secondary small"
        disabled={busy || role === member.role}
        aria-label={`Change the role of ${member.email}`}
      >
        {busy ? "Saving…" : "Change"}
      </button>
    </form>
  );
};

const Members = ({ workspace }: { workspace: WorkspaceView }) => {
  const api = useApi();
  const user = useUser();
  const { ended } = useSession();
  const canManage = manages(workspace.role);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const members = useLoad(
    async () =>
      dataOf(
        await api.GET("/api/v1/workspaces/{id}/members", {
          params: { path: { id: workspace.id }, query: { limit: 100 } },
        }),
      ),
    [api, workspace.id],
  );
  const leaving = removing?.user_id === user.id;
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {message ? <Notice kind="success">{message}</Notice> : null}
      <FormError error={error} />
      {members.state === "error" ? <Problem problem={members.problem} retry={() => void members.reload()} /> : null}
      {members.state === "loading" && !members.data ? <Loading what="the members" /> : null}
      {members.data && members.data.length === 0 ? <Empty title="No members." /> : null}
      {members.data && members.data.length > 0 ? (
        <TableWrap label="Member list">
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((member) => (
                <tr key={member.user_id}>
                  <td>
                    {member.email}
                    {member.user_id === user.id ? <span className="muted"> (you)</span> : null}
                  </td>
                  <td>
                    {canManage && member.user_id !== user.id ? (
                      <RoleChange
                        key={`${member.user_id}-${member.role}`}
                        workspace={workspace}
                        member={member}
                        onDone={(done, failed) => {
                          setMessage(done);
                          setError(failed);
                          if (done) void members.reload();
                        }}
                      />
                    ) : (
                      ROLE_NAMES[member.role]
                    )}
                  </td>
                  <td>{formatDateTime(member.joined_at)}</td>
                  <td>
                    {canManage && member.user_id !== user.id ? (
                      <button
                        type="button"
                        className="button danger small"
                        onClick={() => setRemoving(member)}
                        aria-label={`Remove ${member.email}`}
                      >
                        Remove
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <section className="card leave" aria-labelledby="leave-title">
        <h2 id="leave-title">Leave this workspace</h2>
        {workspace.personal ? (
          <p className="muted">
            This is your personal workspace, made with your account: you stay its owner, and it cannot be left.
          </p>
        ) : workspace.role === "viewer" ? (
          <p className="muted">
            A viewer's changes are refused here, leaving included: ask an owner or admin to remove you.
          </p>
        ) : (
          <>
            <p>You stop being a member at once and are signed out of this workspace.</p>
            <button
              type="button"
              className="button danger"
              onClick={() => setRemoving(members.data?.find((member) => member.user_id === user.id) ?? null)}
              disabled={!members.data}
            >
              Leave {workspace.name}
            </button>
          </>
        )}
      </section>
      <Confirm
        open={removing !== null}
        title={leaving ? `Leave ${workspace.name}?` : `Remove ${removing?.email ?? ""} from ${workspace.name}?`}
        keepLabel={leaving ? "Stay" : "Keep them"}
        actLabel={leaving ? "Leave" : "Remove"}
        busyLabel={leaving ? "Leaving…" : "Removing…"}
        act={async () => {
          if (removing)
            dataOf(
              await api.DELETE("/api/v1/workspaces/{id}/members/{userId}", {
                params: { path: { id: workspace.id, userId: removing.user_id } },
              }),
            );
        }}
        onClose={(acted) => {
          if (acted && leaving) {
            // the API ends every session of a member acting in a workspace they left
            ended(`You have left ${workspace.name}. Sign in again to go on in your other workspaces.`);
            return;
          }
          if (acted && removing) {
            setError(null);
            setMessage(`${removing.email} is removed from ${workspace.name}.`);
            void members.reload();
          }
          setRemoving(null);
        }}
      >
        {leaving ? (
          <p>What you made here stays the workspace's. To come back you need a new invitation.</p>
        ) : (
          <p>
            Their sessions acting in this workspace end at once. What they made stays the workspace's, their API keys
            included: revoke those under API keys.
          </p>
        )}
      </Confirm>
    </section>
  );
};

export const WorkspaceSettings = () => {
  const api = useApi();
  const { workspaces, current, reload } = useWorkspaces();
  const [renaming, setRenaming] = useState(false);
  const canManage = manages(current?.role);
  // the role shown is the API's of now, not of the sign-in: an owner may have changed it since
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens
  useEffect(() => {
    void reload();
  }, []);
  return (
    <Shell>
      <PageTitle
        actions={
          current && canManage ? (
            <button type="button" className="button secondary" onClick={() => setRenaming(true)}>
              Rename
            </button>
          ) : null
        }
      >
        {current ? current.name : "Workspace"}
      </PageTitle>
      {workspaces.state === "error" ? <Problem problem={workspaces.problem} retry={() => void reload()} /> : null}
      {!current && workspaces.state === "loading" ? <Loading what="the workspace" /> : null}
      {current ? (
        <>
          <p className="muted">
            The workspace you act in: its sites, scans, audits and keys are shared by its members. Your role here:{" "}
            <strong>{ROLE_NAMES[current.role]}</strong>. Plan: {current.plan}.
            {current.personal ? " It is your personal workspace." : ""}
          </p>
          {canManage ? null : <Notice kind="info">{READ_ONLY[current.role]}</Notice>}
          <Fragment key={current.id}>
            <Members workspace={current} />
            {canManage ? <Invitations workspace={current} /> : null}
            <ReportBranding canEdit={current.role !== "viewer"} />
            <EngineKeys workspace={current} />
            <Clients />
            {canManage ? <AuditLog workspace={current} /> : null}
          </Fragment>
          <Rename
            open={renaming}
            title="Rename the workspace"
            label="Name"
            current={current.name}
            maxLength={100}
            saveLabel="Rename"
            save={async (name) => {
              dataOf(
                await api.PATCH("/api/v1/workspaces/{id}", { params: { path: { id: current.id } }, body: { name } }),
              );
            }}
            onClose={(saved) => {
              setRenaming(false);
              if (saved) void reload();
            }}
          />
        </>
      ) : null}
    </Shell>
  );
};
