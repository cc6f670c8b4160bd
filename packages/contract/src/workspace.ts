import { z } from "zod";
import { Plan } from "./account";
import { Email } from "./email";

/**
 * What a member may do in a workspace: `owner` and `admin` manage members and invitations (only an
 * owner makes or unmakes an owner), `member` reads and writes the workspace's records, `viewer`
 * only reads them: every write of a viewer is 403 `forbidden`.
 */
export const WorkspaceRole = z.enum(["owner", "admin", "member", "viewer"]);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

/** A workspace as its members see it. */
export const WorkspaceView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** sets the rate limits and the monthly quota of every key and member acting in it */
  plan: Plan,
  /** a user's personal workspace, made with their account */
  personal: z.boolean(),
  /** the caller's role in it */
  role: WorkspaceRole,
  /** whether it is the one the caller acts in now */
  current: z.boolean(),
  created_at: z.iso.datetime(),
});
export type WorkspaceView = z.infer<typeof WorkspaceView>;

/** A member of a workspace. */
export const MemberView = z.object({
  user_id: z.uuid(),
  email: z.string(),
  role: WorkspaceRole,
  joined_at: z.iso.datetime(),
});
export type MemberView = z.infer<typeof MemberView>;

/** An invitation into a workspace: never its token, except once in `link` on creation. */
export const WorkspaceInvitationView = z.object({
  id: z.uuid(),
  email: z.string(),
  role: WorkspaceRole,
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  accepted_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
});
export type WorkspaceInvitationView = z.infer<typeof WorkspaceInvitationView>;

/** The create response: the only time the invitation's link is sent (mail it to the invitee). */
export const CreatedWorkspaceInvitation = WorkspaceInvitationView.extend({ link: z.string() });
export type CreatedWorkspaceInvitation = z.infer<typeof CreatedWorkspaceInvitation>;

const Name = z
  .string({ error: "name must be a string" })
  .trim()
  .min(1, "name must not be empty: send 1 to 100 characters")
  .max(100, "name must be at most 100 characters");

/** PATCH /api/v1/workspaces/:id body. */
export const RenameWorkspaceRequest = z.strictObject({ name: Name });
export type RenameWorkspaceRequest = z.infer<typeof RenameWorkspaceRequest>;

/** PATCH /api/v1/workspaces/:id/members/:userId body. */
export const ChangeMemberRoleRequest = z.strictObject({ role: WorkspaceRole });
export type ChangeMemberRoleRequest = z.infer<typeof ChangeMemberRoleRequest>;

/** POST /api/v1/workspaces/:id/invitations body. */
export const CreateWorkspaceInvitationRequest = z.strictObject({
  email: Email,
  role: WorkspaceRole.default("member"),
});
export type CreateWorkspaceInvitationRequest = z.infer<typeof CreateWorkspaceInvitationRequest>;

/** POST /api/v1/workspaces/invitations/accept body: the token of the invitation's link. */
export const AcceptWorkspaceInvitationRequest = z.strictObject({
  token: z.string({ error: "token must be a string" }).min(1, "token must not be empty").max(200),
});
export type AcceptWorkspaceInvitationRequest = z.infer<typeof AcceptWorkspaceInvitationRequest>;

const uuidParam = (name: string) => z.uuid({ error: `${name} must be a UUID` }).transform((id) => id.toLowerCase());

export const WorkspaceIdParam = z.object({ id: uuidParam("id") });
export const WorkspaceMemberParam = z.object({ id: uuidParam("id"), userId: uuidParam("userId") });
export const WorkspaceInvitationParam = z.object({ id: uuidParam("id"), invitationId: uuidParam("invitationId") });
