import {
  AppError,
  type CreatedWorkspaceInvitation,
  type CreateWorkspaceInvitationRequest,
  type DeletedRecord,
  type MemberView,
  offsetOf,
  type PageMeta,
  type PageQuery,
  pageMeta,
  type WorkspaceInvitationView,
  type WorkspaceRole,
  type WorkspaceView,
} from "@scan/contract";
import type { Db, Workspace, WorkspaceInvitation } from "@scan/db";
import { type Actor, auditLog } from "@scan/records";
import { sha256Hex } from "../access/session-service";
import { type Tx, withUserLock } from "../access/user-lock";
import type { OneTimeLink } from "../auth";

/**
 * The signed-in member acting: who they are, the workspace their session acts in, that session
 * (null: the accounts CLI's token), and the request as the audit log records its changes.
 */
export type Member = { userId: string; workspaceId: string; sessionId: string | null; actor: Actor };

export type WorkspaceServiceDeps = {
  db: Db;
  /** makes an invitation's row and its one-time link (auth/one-time-links.ts) */
  invite: (
    invitation: { workspaceId: string; email: string; role: WorkspaceRole; invitedById: string },
    lifetimeS: number,
    client?: Tx,
  ) => Promise<OneTimeLink & { id: string; createdAt: Date }>;
  /** how long an invitation's link works */
  invitationLifetimeS: number;
  /** told of each key revoked with its maker's removal, after it is committed (the gateway's key cache) */
  onKeyRevoked?: (keyId: string) => void;
};

export type WorkspaceService = {
  /** The member's workspaces, the oldest membership first. */
  listMine: (member: Member, page: PageQuery) => Promise<{ workspaces: WorkspaceView[]; meta: PageMeta }>;
  /** One of the member's workspaces; any other is 404. */
  get: (member: Member, workspaceId: string) => Promise<WorkspaceView>;
  /** Renames one of the member's workspaces: an owner's or admin's. */
  rename: (member: Member, workspaceId: string, name: string) => Promise<WorkspaceView>;
  /** The workspace's members, the oldest first. */
  members: (member: Member, workspaceId: string, page: PageQuery) => Promise<{ members: MemberView[]; meta: PageMeta }>;
  /** Gives a member another role: an owner's or admin's; only an owner makes or unmakes an owner; the last owner stays one. */
  changeRole: (member: Member, workspaceId: string, userId: string, role: WorkspaceRole) => Promise<MemberView>;
  /** Removes a member (an owner's or admin's, or a member leaving), ending their sessions in the workspace and revoking the API keys they made there. */
  removeMember: (member: Member, workspaceId: string, userId: string) => Promise<DeletedRecord>;
  /** Invites an email with a role: an owner's or admin's (an owner's, for the owner role); the link is in this answer only. */
  invite: (
    member: Member,
    workspaceId: string,
    input: CreateWorkspaceInvitationRequest,
  ) => Promise<CreatedWorkspaceInvitation>;
  /** The workspace's invitations, newest first: an owner's or admin's. */
  invitations: (
    member: Member,
    workspaceId: string,
    page: PageQuery,
  ) => Promise<{ invitations: WorkspaceInvitationView[]; meta: PageMeta }>;
  /** Revokes an open invitation; an accepted, revoked or unknown one is 404. */
  revokeInvitation: (member: Member, workspaceId: string, invitationId: string) => Promise<WorkspaceInvitationView>;
  /** Makes the signed-in user, whose email the invitation names, a member with its role. */
  accept: (member: Member, token: string) => Promise<WorkspaceView>;
  /** Makes one of the member's workspaces their session's current one. */
  switchTo: (member: Member, workspaceId: string) => Promise<WorkspaceView>;
};

const MANAGERS: ReadonlySet<WorkspaceRole> = new Set(["owner", "admin"]);

const workspaceNotFound = (id: string) =>
  new AppError("not_found", `No workspace with id ${id}`, "Use a workspace id from GET /api/v1/workspaces.");

const memberNotFound = (id: string) =>
  new AppError(
    "not_found",
    `No member with user id ${id} in this workspace`,
    "Use a user id from GET /api/v1/workspaces/{id}/members.",
  );

const invitationNotFound = (id: string) =>
  new AppError(
    "not_found",
    `No open invitation with id ${id}`,
    "Use an invitation id from GET /api/v1/workspaces/{id}/invitations that is neither accepted nor revoked.",
  );

const needsManager = (role: WorkspaceRole) =>
  new AppError(
    "forbidden",
    `Your role in this workspace is ${role}; managing it is for its owners and admins`,
    "Ask an owner or admin of the workspace.",
  );

const needsOwner = (role: WorkspaceRole) =>
  new AppError(
    "forbidden",
    `Your role in this workspace is ${role}; only an owner makes or unmakes an owner`,
    "Ask an owner of the workspace.",
  );

const lastOwner = () =>
  new AppError(
    "conflict",
    "This is the workspace's last owner",
    "Make another member an owner first (PATCH /api/v1/workspaces/{id}/members/{userId}).",
  );

const personalOwner = () =>
  new AppError(
    "conflict",
    "A personal workspace's user stays its owner",
    "Its user can be neither removed from it nor given another role.",
  );

export const toWorkspaceView = (workspace: Workspace, role: WorkspaceRole, currentId: string): WorkspaceView => ({
  id: workspace.id,
  name: workspace.name,
  plan: workspace.plan,
  personal: workspace.personalUserId !== null,
  role,
  current: workspace.id === currentId,
  created_at: workspace.createdAt.toISOString(),
});

export const toInvitationView = (invitation: WorkspaceInvitation): WorkspaceInvitationView => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  created_at: invitation.createdAt.toISOString(),
  expires_at: invitation.expiresAt.toISOString(),
  accepted_at: invitation.acceptedAt?.toISOString() ?? null,
  revoked_at: invitation.revokedAt?.toISOString() ?? null,
});

const toMemberView = (row: { userId: string; role: WorkspaceRole; createdAt: Date; user: { email: string } }) => ({
  user_id: row.userId,
  email: row.user.email,
  role: row.role,
  joined_at: row.createdAt.toISOString(),
});

/**
 * Workspaces as their members manage them: listed, read and renamed; members listed, given
 * roles and removed; invitations by one-time link made, listed, revoked and accepted; and the
 * session's current workspace switched. Another workspace, one the caller is not a member of,
 * is 404 as a missing one is. Changes of membership hold the workspace's lock, so two of them
 * cannot together leave it without an owner.
 */
export const createWorkspaceService = ({
  db,
  invite,
  invitationLifetimeS,
  onKeyRevoked,
}: WorkspaceServiceDeps): WorkspaceService => {
  /** The member's role in the workspace, with the workspace; 404 when they are not one of its members. */
  const membershipOf = async (client: Db | Tx, member: Member, workspaceId: string) => {
    const row = await client.membership.findUnique({
      where: { workspaceId_userId: { workspaceId, userId: member.userId } },
      include: { workspace: true },
    });
    if (!row) throw workspaceNotFound(workspaceId);
    return row;
  };

  const managing = async (client: Db | Tx, member: Member, workspaceId: string) => {
    const row = await membershipOf(client, member, workspaceId);
    if (!MANAGERS.has(row.role)) throw needsManager(row.role);
    return row;
  };

  const listMine = async (member: Member, page: PageQuery) => {
    const where = { userId: member.userId };
    const [total, rows] = await db.$transaction(
      [
        db.membership.count({ where }),
        db.membership.findMany({
          where,
          include: { workspace: true },
          orderBy: [{ createdAt: "asc" }, { workspaceId: "asc" }],
          skip: offsetOf(page),
          take: page.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return {
      workspaces: rows.map((row) => toWorkspaceView(row.workspace, row.role, member.workspaceId)),
      meta: pageMeta(page, total),
    };
  };

  const get = async (member: Member, workspaceId: string) => {
    const row = await membershipOf(db, member, workspaceId);
    return toWorkspaceView(row.workspace, row.role, member.workspaceId);
  };

  const rename = async (member: Member, workspaceId: string, name: string) => {
    const row = await managing(db, member, workspaceId);
    const renamed = await db.$transaction(async (tx) => {
      const before = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { name: true } });
      const after = await tx.workspace.update({ where: { id: workspaceId }, data: { name } });
      if (before.name !== name)
        await auditLog.append(tx, workspaceId, member.actor, {
          action: "workspace.renamed",
          target: { type: "workspace", id: workspaceId },
          changes: { name: { from: before.name, to: name } },
        });
      return after;
    });
    return toWorkspaceView(renamed, row.role, member.workspaceId);
  };

  const members = async (member: Member, workspaceId: string, page: PageQuery) => {
    await membershipOf(db, member, workspaceId);
    const where = { workspaceId };
    const [total, rows] = await db.$transaction(
      [
        db.membership.count({ where }),
        db.membership.findMany({
          where,
          include: { user: { select: { email: true } } },
          orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
          skip: offsetOf(page),
          take: page.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { members: rows.map(toMemberView), meta: pageMeta(page, total) };
  };

  /** The target's membership, checked against the rules every change of it keeps. */
  const changeable = async (tx: Tx, actor: WorkspaceRole, workspace: Workspace, userId: string, to?: WorkspaceRole) => {
    const target = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: workspace.id, userId } },
      include: { user: { select: { email: true } } },
    });
    if (!target) throw memberNotFound(userId);
    if ((target.role === "owner" || to === "owner") && actor !== "owner") throw needsOwner(actor);
    if (target.role === "owner" && to !== "owner") {
      if (workspace.personalUserId === userId) throw personalOwner();
      const owners = await tx.membership.count({ where: { workspaceId: workspace.id, role: "owner" } });
      if (owners <= 1) throw lastOwner();
    }
    return target;
  };

  const changeRole = (member: Member, workspaceId: string, userId: string, role: WorkspaceRole) =>
    withUserLock(db, "members", workspaceId, async (tx) => {
      const actor = await managing(tx, member, workspaceId);
      const before = await changeable(tx, actor.role, actor.workspace, userId, role);
      const changed = await tx.membership.update({
        where: { workspaceId_userId: { workspaceId, userId } },
        data: { role },
        include: { user: { select: { email: true } } },
      });
      if (before.role !== role)
        await auditLog.append(tx, workspaceId, member.actor, {
          action: "member.role_changed",
          target: { type: "member", id: userId },
          changes: { email: changed.user.email, role: { from: before.role, to: role } },
        });
      return toMemberView(changed);
    });

  const removeMember = async (member: Member, workspaceId: string, userId: string) => {
    const { removed, revokedKeys } = await withUserLock(db, "members", workspaceId, async (tx) => {
      const actor = await membershipOf(tx, member, workspaceId);
      // anyone may leave; removing someone else is an owner's or admin's
      if (userId !== member.userId && !MANAGERS.has(actor.role)) throw needsManager(actor.role);
      const target = await changeable(tx, userId === member.userId ? "owner" : actor.role, actor.workspace, userId);
      await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
      const now = new Date();
      // their sessions in the workspace end; the authenticator refuses them anyway, as it checks the membership
      await tx.session.updateMany({ where: { userId, workspaceId, revokedAt: null }, data: { revokedAt: now } });
      // the keys they made here are revoked: each one's secret was shown to its maker alone, who
      // leaves with it (gateways caching one hear of it on commit, as of any revocation)
      const keys = await tx.apiKey.findMany({ where: { userId, workspaceId, revokedAt: null }, select: { id: true } });
      await tx.apiKey.updateMany({
        where: { id: { in: keys.map((key) => key.id) }, revokedAt: null },
        data: { revokedAt: now },
      });
      await auditLog.append(tx, workspaceId, member.actor, {
        action: userId === member.userId ? "member.left" : "member.removed",
        target: { type: "member", id: userId },
        changes: { email: target.user.email, role: target.role, keys_revoked: keys.map((key) => key.id) },
      });
      return { removed: { id: userId, deleted: true as const }, revokedKeys: keys.map((key) => key.id) };
    });
    for (const keyId of revokedKeys) onKeyRevoked?.(keyId);
    return removed;
  };

  const inviteTo = async (member: Member, workspaceId: string, input: CreateWorkspaceInvitationRequest) => {
    const actor = await managing(db, member, workspaceId);
    if (input.role === "owner" && actor.role !== "owner") throw needsOwner(actor.role);
    const already = await db.membership.count({ where: { workspaceId, user: { email: input.email } } });
    if (already > 0) {
      throw new AppError(
        "conflict",
        `${input.email} is already a member of this workspace`,
        "Change their role with PATCH /api/v1/workspaces/{id}/members/{userId}.",
      );
    }
    const link = await db.$transaction(async (tx) => {
      const made = await invite(
        { workspaceId, email: input.email, role: input.role, invitedById: member.userId },
        invitationLifetimeS,
        tx,
      );
      // the link is a credential: the entry names the invitation, never its link
      await auditLog.append(tx, workspaceId, member.actor, {
        action: "member.invited",
        target: { type: "invitation", id: made.id },
        changes: { email: input.email, role: input.role },
      });
      return made;
    });
    return {
      id: link.id,
      email: input.email,
      role: input.role,
      created_at: link.createdAt.toISOString(),
      expires_at: link.expiresAt.toISOString(),
      accepted_at: null,
      revoked_at: null,
      link: link.url,
    };
  };

  const invitations = async (member: Member, workspaceId: string, page: PageQuery) => {
    await managing(db, member, workspaceId);
    const where = { workspaceId };
    const [total, rows] = await db.$transaction(
      [
        db.workspaceInvitation.count({ where }),
        db.workspaceInvitation.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: offsetOf(page),
          take: page.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { invitations: rows.map(toInvitationView), meta: pageMeta(page, total) };
  };

  const revokeInvitation = async (member: Member, workspaceId: string, invitationId: string) => {
    await managing(db, member, workspaceId);
    const revoked = await db.$transaction(async (tx) => {
      const { count } = await tx.workspaceInvitation.updateMany({
        where: { id: invitationId, workspaceId, acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count === 0) throw invitationNotFound(invitationId);
      const row = await tx.workspaceInvitation.findUniqueOrThrow({ where: { id: invitationId } });
      await auditLog.append(tx, workspaceId, member.actor, {
        action: "member.invitation_revoked",
        target: { type: "invitation", id: invitationId },
        changes: { email: row.email, role: row.role },
      });
      return row;
    });
    return toInvitationView(revoked);
  };

  const accept = async (member: Member, token: string) => {
    const unusable = new AppError(
      "not_found",
      "This invitation link is unknown, expired, revoked or already used",
      "Ask the workspace's owner or admin for a new invitation.",
    );
    const invitation = await db.workspaceInvitation.findUnique({ where: { tokenHash: sha256Hex(token) } });
    if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt.getTime() <= Date.now())
      throw unusable;
    const user = await db.user.findUniqueOrThrow({ where: { id: member.userId }, select: { email: true } });
    if (user.email !== invitation.email) {
      throw new AppError(
        "forbidden",
        "This invitation is for another email address",
        "Sign in as the user the invitation was sent to.",
      );
    }
    return withUserLock(db, "members", invitation.workspaceId, async (tx) => {
      // spent once: a second accept of the same link finds it used
      const { count } = await tx.workspaceInvitation.updateMany({
        where: { id: invitation.id, acceptedAt: null, revokedAt: null },
        data: { acceptedAt: new Date() },
      });
      if (count === 0) throw unusable;
      const existing = await tx.membership.findUnique({
        where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId: member.userId } },
      });
      if (existing) {
        throw new AppError(
          "conflict",
          "You are already a member of this workspace",
          "Switch to it with POST /api/v1/workspaces/{id}/switch.",
        );
      }
      const joined = await tx.membership.create({
        data: { workspaceId: invitation.workspaceId, userId: member.userId, role: invitation.role },
        include: { workspace: true },
      });
      await auditLog.append(tx, invitation.workspaceId, member.actor, {
        action: "member.joined",
        target: { type: "member", id: member.userId },
        changes: { email: user.email, role: joined.role, invitation_id: invitation.id },
      });
      return toWorkspaceView(joined.workspace, joined.role, member.workspaceId);
    });
  };

  const switchTo = async (member: Member, workspaceId: string) => {
    if (member.sessionId === null) {
      throw new AppError(
        "invalid_request",
        "Only a dashboard session has a current workspace to switch",
        "Use the JWT of a signed-in session (POST /auth/token); the accounts command's tokens act in the personal workspace.",
      );
    }
    const row = await membershipOf(db, member, workspaceId);
    await db.session.update({ where: { id: member.sessionId }, data: { workspaceId } });
    return toWorkspaceView(row.workspace, row.role, workspaceId);
  };

  return {
    listMine,
    get,
    rename,
    members,
    changeRole,
    removeMember,
    invite: inviteTo,
    invitations,
    revokeInvitation,
    accept,
    switchTo,
  };
};
