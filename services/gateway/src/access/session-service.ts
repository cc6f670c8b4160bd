import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Plan, Role, WorkspaceRole } from "@scan/contract";
import type { Db } from "@scan/db";

/** The user a live session belongs to, as the dashboard is shown them. */
export type SessionUser = { id: string; email: string; role: Role; plan: Plan };

/** The workspace a session acts in, with the user's role there; its plan sets the limits. */
export type SessionWorkspace = { id: string; role: WorkspaceRole; plan: Plan };

/** A live session: its id (what its JWTs carry), its user, the workspace it acts in and when it ends. */
export type LiveSession = {
  id: string;
  user: SessionUser;
  workspace: SessionWorkspace;
  /** the absolute end, fixed at sign-in */
  expiresAt: Date;
  /** when it ends if it is not used before then: the earlier of the idle and the absolute end */
  endsAt: Date;
};

/** A session just started: the secret goes into the cookie and nowhere else. */
export type StartedSession = LiveSession & { secret: string };

export type SessionLifetimes = { idleMs: number; maxMs: number };

/** A revoked session's row is kept this long (it tells a refused JWT's session apart from an unknown one), then dropped at the user's next sign-in. */
const KEPT_AFTER_REVOCATION_MS = 86_400_000;

/** The use of a session is written at most this often (and at least four times per idle lifetime). */
const SEEN_RESOLUTION_MS = 60_000;

export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex");

/** A token for a link or a cookie: 32 random bytes, base64url (43 characters). */
export const newSecret = (): string => randomBytes(32).toString("base64url");

/**
 * The CSRF token of a session: an HMAC of a fixed label under the session's secret, so it is
 * stored nowhere, changes with every new session, and tells nothing of the secret.
 */
export const csrfTokenOf = (secret: string): string => createHmac("sha256", secret).update("csrf").digest("base64url");

export const csrfTokenMatches = (secret: string, presented: string | undefined): boolean => {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenOf(secret));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
};

export type SessionService = {
  /** Starts a session for the user and answers it with its secret, for the cookie. */
  start: (user: SessionUser) => Promise<StartedSession>;
  /** The live session a cookie's secret names, its use recorded; null when unknown, revoked or ended. */
  resume: (secret: string) => Promise<LiveSession | null>;
  /** Ends one session (sign-out); an ended one stays ended. */
  revoke: (sessionId: string) => Promise<void>;
  /** Ends every live session of the user but `keep` (none: all of them); answers how many ended. */
  revokeAllOf: (userId: string, keep?: string) => Promise<number>;
  /** how long a session lives unused (SESSION_IDLE_S), which its JWTs follow */
  idleMs: number;
};

/**
 * Dashboard sessions, kept in Postgres beside the users they belong to: a row per session,
 * found by the SHA-256 of the cookie's secret. A session ends when revoked, at its absolute
 * end, or after the idle lifetime without use.
 */
export const createSessionService = ({ db, lifetimes }: { db: Db; lifetimes: SessionLifetimes }): SessionService => {
  const seenResolutionMs = Math.min(SEEN_RESOLUTION_MS, Math.floor(lifetimes.idleMs / 4));

  const endsAt = (lastSeenAt: Date, expiresAt: Date): Date =>
    new Date(Math.min(expiresAt.getTime(), lastSeenAt.getTime() + lifetimes.idleMs));

  const start = async (user: SessionUser): Promise<StartedSession> => {
    const secret = newSecret();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + lifetimes.maxMs);
    // the user's rows of sessions long over go as a new one starts: the table holds live sessions and recent ones
    await db.session.deleteMany({
      where: {
        userId: user.id,
        OR: [{ expiresAt: { lt: now } }, { revokedAt: { lt: new Date(now.getTime() - KEPT_AFTER_REVOCATION_MS) } }],
      },
    });
    // a session starts in the user's personal workspace
    const personal = await db.workspace.findUniqueOrThrow({
      where: { personalUserId: user.id },
      select: { id: true, plan: true },
    });
    const row = await db.session.create({
      data: {
        userId: user.id,
        workspaceId: personal.id,
        tokenHash: sha256Hex(secret),
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
      },
    });
    const workspace: SessionWorkspace = { id: personal.id, role: "owner", plan: personal.plan };
    return { id: row.id, user, workspace, expiresAt, endsAt: endsAt(now, expiresAt), secret };
  };

  /** The live session a cookie's secret names, its use recorded; null when unknown, revoked or ended. */
  const resume = async (secret: string): Promise<LiveSession | null> => {
    const row = await db.session.findUnique({
      where: { tokenHash: sha256Hex(secret) },
      include: { user: { select: { id: true, email: true, role: true, plan: true } } },
    });
    if (!row || row.revokedAt) return null;
    // the workspace it acts in (its own, else the user's personal one), while the user is a member of it
    const member = await db.membership.findFirst({
      where: {
        userId: row.userId,
        ...(row.workspaceId ? { workspaceId: row.workspaceId } : { workspace: { personalUserId: row.userId } }),
      },
      select: { workspaceId: true, role: true, workspace: { select: { plan: true } } },
    });
    if (!member) return null;
    const now = Date.now();
    if (endsAt(row.lastSeenAt, row.expiresAt).getTime() <= now) return null;
    let lastSeenAt = row.lastSeenAt;
    if (now - lastSeenAt.getTime() >= seenResolutionMs) {
      lastSeenAt = new Date(now);
      await db.session.updateMany({ where: { id: row.id, revokedAt: null }, data: { lastSeenAt } });
    }
    return {
      id: row.id,
      user: row.user,
      workspace: { id: member.workspaceId, role: member.role, plan: member.workspace.plan },
      expiresAt: row.expiresAt,
      endsAt: endsAt(lastSeenAt, row.expiresAt),
    };
  };

  const revoke = async (sessionId: string): Promise<void> => {
    await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
  };

  /** Ends every live session of the user but `keep` (none: all of them); answers how many ended. */
  const revokeAllOf = async (userId: string, keep?: string): Promise<number> => {
    const { count } = await db.session.updateMany({
      where: { userId, revokedAt: null, ...(keep ? { id: { not: keep } } : {}) },
      data: { revokedAt: new Date() },
    });
    return count;
  };

  return { start, resume, revoke, revokeAllOf, idleMs: lifetimes.idleMs };
};
