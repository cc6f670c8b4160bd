import {
  AcceptWorkspaceInvitationRequest,
  ChangeMemberRoleRequest,
  CreatedWorkspaceInvitation,
  CreateWorkspaceInvitationRequest,
  DeletedRecord,
  MemberView,
  PageQuery,
  RenameWorkspaceRequest,
  WorkspaceIdParam,
  WorkspaceInvitationParam,
  WorkspaceInvitationView,
  WorkspaceMemberParam,
  WorkspaceView,
} from "@scan/contract";
import type { Request, Response } from "express";
import { actorOf } from "../access/actor";
import type { UserCaller } from "../access/authenticate";
import {
  apiErrors,
  commonHeaders,
  conditionalHeaders,
  created,
  creatingHeaders,
  page,
  pageNotModified,
  record,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { Member, WorkspaceService } from "./workspace-service";

const TAGS: ["Workspaces"] = ["Workspaces"];
const PAGE_HINT = "page ≥ 1; limit from 1 to 100.";
const ID_HINT = "Use a workspace id from GET /api/v1/workspaces.";
const MEMBER_HINT = "Use a workspace id from GET /api/v1/workspaces and a user id from its members.";
const INVITATION_HINT = "Use a workspace id from GET /api/v1/workspaces and an invitation id from its invitations.";
const NOT_YOURS =
  "A workspace the caller is not a member of is 404, as an unknown one is. A viewer's writes are 403 `forbidden` (the role of the session's current workspace).";
const MANAGED = "For the workspace's owners and admins (403 `forbidden` for its members and viewers).";

const memberOf = (caller: UserCaller, req: Request, res: Response): Member => ({
  userId: caller.userId,
  workspaceId: caller.workspaceId,
  sessionId: caller.sessionId,
  actor: actorOf(caller, req, res),
});

/**
 * /api/v1/workspaces…: a signed-in member's workspaces, their members and roles, invitations
 * by one-time link, and the session's current workspace. A JWT's (like the key endpoints): an
 * API key belongs to one workspace and manages none.
 */
export const workspaceRoutes = (workspaces: WorkspaceService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/workspaces",
      authorization: "user-jwt",
      query: { schema: PageQuery, hint: PAGE_HINT },
      docs: {
        operationId: "listWorkspaces",
        tags: TAGS,
        summary: "The signed-in user's workspaces",
        description:
          "Every workspace the user is a member of, oldest membership first (the personal one is among them), each with the user's `role` there and whether it is the session's `current` one.",
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of workspaces.", WorkspaceView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query, req, res }) => {
      const { workspaces: items, meta } = await workspaces.listMine(memberOf(caller, req, res), query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/workspaces/invitations/accept",
      authorization: "user-jwt",
      body: { schema: AcceptWorkspaceInvitationRequest, hint: 'Send {"token": "<the token of the link>"} as JSON.' },
      viewerMayWrite: true,
      docs: {
        operationId: "acceptWorkspaceInvitation",
        tags: TAGS,
        summary: "Accept an invitation into a workspace",
        description:
          "The token is the `#token=` of the invitation's link. The signed-in user, whose email the invitation names (403 `forbidden` for another), becomes a member with the invitation's role; the link works once, before it expires (7 days), and an unknown, expired, revoked or used one is 404. 409 `conflict` when the user is already a member. The session's current workspace stays: switch with `POST /api/v1/workspaces/{id}/switch`. A viewer may accept.",
        headers: commonHeaders,
        responses: {
          "200": record("The workspace joined, with the user's role in it.", WorkspaceView),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, body, req, res }) => workspaces.accept(memberOf(caller, req, res), body.token),
  ),
  route(
    {
      method: "get",
      path: "/api/v1/workspaces/:id",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      docs: {
        operationId: "getWorkspace",
        tags: TAGS,
        summary: "One of the user's workspaces",
        description: `The workspace, its plan and the user's role in it. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The workspace.", WorkspaceView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) => workspaces.get(memberOf(caller, req, res), params.id),
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/workspaces/:id",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      body: { schema: RenameWorkspaceRequest, hint: 'Send {"name": "Agency"} as JSON.', report: "names" },
      docs: {
        operationId: "renameWorkspace",
        tags: TAGS,
        summary: "Rename a workspace",
        description: `Gives the workspace a new \`name\` (1 to 100 characters, trimmed). ${MANAGED} ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The workspace, renamed.", WorkspaceView),
          ...apiErrors(400, 401, 403, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body, req, res }) => workspaces.rename(memberOf(caller, req, res), params.id, body.name),
  ),
  route(
    {
      method: "post",
      path: "/api/v1/workspaces/:id/switch",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      viewerMayWrite: true,
      docs: {
        operationId: "switchWorkspace",
        tags: TAGS,
        summary: "Act in another of the user's workspaces",
        description: `Makes the workspace the dashboard session's current one: from the next request on, every JWT of the session reads, writes and is counted in it, with the user's role there. Needs a session's JWT (400 for the accounts command's tokens, which act in the personal workspace). A viewer may switch. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The workspace now current.", WorkspaceView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) => workspaces.switchTo(memberOf(caller, req, res), params.id),
  ),
  route(
    {
      method: "get",
      path: "/api/v1/workspaces/:id/members",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      query: { schema: PageQuery, hint: PAGE_HINT },
      docs: {
        operationId: "listWorkspaceMembers",
        tags: TAGS,
        summary: "The workspace's members",
        description: `Oldest member first, each with their role. Any member may read it. ${NOT_YOURS}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of members.", MemberView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, req, res }) => {
      const { members, meta } = await workspaces.members(memberOf(caller, req, res), params.id, query);
      return pageOf(members, meta);
    },
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/workspaces/:id/members/:userId",
      authorization: "user-jwt",
      params: { schema: WorkspaceMemberParam, hint: MEMBER_HINT },
      body: {
        schema: ChangeMemberRoleRequest,
        hint: 'Send {"role": "owner" | "admin" | "member" | "viewer"} as JSON.',
        report: "names",
      },
      docs: {
        operationId: "changeWorkspaceMemberRole",
        tags: TAGS,
        summary: "Give a member another role",
        description: `${MANAGED} Only an owner makes a member an owner or gives an owner another role; the last owner, and a personal workspace's own user, stay owners (409 \`conflict\`). A role change applies to the member's next request. ${NOT_YOURS} An unknown member is 404.`,
        headers: commonHeaders,
        responses: {
          "200": record("The member with their new role.", MemberView),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body, req, res }) =>
      workspaces.changeRole(memberOf(caller, req, res), params.id, params.userId, body.role),
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/workspaces/:id/members/:userId",
      authorization: "user-jwt",
      params: { schema: WorkspaceMemberParam, hint: MEMBER_HINT },
      docs: {
        operationId: "removeWorkspaceMember",
        tags: TAGS,
        summary: "Remove a member, or leave",
        description: `${MANAGED} A member may remove themselves (leave). Only an owner removes an owner; the last owner, and a personal workspace's own user, cannot leave (409 \`conflict\`). Every session of the member acting in the workspace ends at once (their next request is 401), and every API key they made in the workspace is revoked (its secret was shown to them alone); what else they made stays the workspace's. ${NOT_YOURS} An unknown member is 404.`,
        headers: commonHeaders,
        responses: {
          "200": record("Removed: `id` is the user's.", DeletedRecord),
          ...apiErrors(400, 401, 403, 404, 405, 409, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) =>
      workspaces.removeMember(memberOf(caller, req, res), params.id, params.userId),
  ),
  route(
    {
      method: "post",
      path: "/api/v1/workspaces/:id/invitations",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      body: {
        schema: CreateWorkspaceInvitationRequest,
        hint: 'Send {"email": "someone@example.com", "role": "member"} as JSON; role defaults to member.',
        report: "names",
      },
      idempotent: true,
      docs: {
        operationId: "createWorkspaceInvitation",
        tags: TAGS,
        summary: "Invite an email into the workspace",
        description: `Makes a one-time link (7 days) that lets the user with this email join with the role (\`member\` unless given); send it to them. ${MANAGED} Only an owner invites an owner. 409 \`conflict\` when the email is already a member's. ${NOT_YOURS}`,
        headers: creatingHeaders,
        responses: {
          "201": created(
            "The invitation and, this once, its `link` (again to a retry with its `Idempotency-Key`).",
            CreatedWorkspaceInvitation,
          ),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body, req, res }) => {
      const invitation = await workspaces.invite(memberOf(caller, req, res), params.id, body);
      // the only answer that holds the link: no cache may keep it
      return reply(invitation, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/workspaces/:id/invitations",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      query: { schema: PageQuery, hint: PAGE_HINT },
      docs: {
        operationId: "listWorkspaceInvitations",
        tags: TAGS,
        summary: "The workspace's invitations",
        description: `Newest first, open, accepted, revoked and expired alike; never their links. ${MANAGED} ${NOT_YOURS}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of invitations.", WorkspaceInvitationView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, req, res }) => {
      const { invitations, meta } = await workspaces.invitations(memberOf(caller, req, res), params.id, query);
      return pageOf(invitations, meta);
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/workspaces/:id/invitations/:invitationId",
      authorization: "user-jwt",
      params: { schema: WorkspaceInvitationParam, hint: INVITATION_HINT },
      docs: {
        operationId: "revokeWorkspaceInvitation",
        tags: TAGS,
        summary: "Revoke an invitation",
        description: `Its link works no more. ${MANAGED} An accepted, already revoked or unknown invitation is 404. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The revoked invitation (`revoked_at` set).", WorkspaceInvitationView),
          ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) =>
      workspaces.revokeInvitation(memberOf(caller, req, res), params.id, params.invitationId),
  ),
];
