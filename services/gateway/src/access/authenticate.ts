import { AppError, Plan, ResponseForm, Role, WorkspaceRole } from "@scan/contract";
import type { Db } from "@scan/db";
import { API_KEY_PREFIX, checkApiKey, hashApiKey } from "@scan/platform";
import { z } from "zod";
import type { JwtClaims, VerifyJwt } from "./jwt-verifier";
import type { KeyCache, KnownKey } from "./key-cache";

/**
 * Who is calling: nobody, the holder of an API key, or a user signed in with a JWT: one the
 * accounts CLI made (the key endpoints only), or one of a dashboard session (every endpoint).
 * An account caller acts in one workspace, whose plan it is counted on: a key's own workspace,
 * a session's current one (the user's personal workspace for the accounts CLI's tokens).
 */
export type AnonymousCaller = { kind: "anonymous" };
export type KeyCaller = {
  kind: "key";
  keyId: string;
  /** the member who made the key: the maker of what the key makes */
  userId: string;
  workspaceId: string;
  plan: Plan;
  defaultForm: ResponseForm | null;
  /** the client the key is limited to (access/key-scope.ts); null: the whole workspace */
  clientId: string | null;
  /** a read-only key's writes are refused (access/key-scope.ts) */
  readOnly: boolean;
};
export type UserCaller = {
  kind: "user";
  userId: string;
  workspaceId: string;
  /** the user's role in that workspace */
  workspaceRole: WorkspaceRole;
  /** the workspace's plan */
  plan: Plan;
  /** service-wide: `operator`s see the service's operations */
  role: Role;
  claims: JwtClaims;
  /** the dashboard session the JWT was issued for; null for the accounts CLI's tokens */
  sessionId: string | null;
};
export type Caller = AnonymousCaller | KeyCaller | UserCaller;
/** A caller that is some user's: by an API key or by a signed-in session. */
export type AccountCaller = KeyCaller | UserCaller;

/** Whose the rows a caller makes are: its workspace's, made by its member (a key's: the key's maker). */
export const ownerOf = (caller: AccountCaller): { workspaceId: string; userId: string } => ({
  workspaceId: caller.workspaceId,
  userId: caller.userId,
});

/** The key a caller's request was made with, when it was made with one (scans remember it). */
export const keyIdOf = (caller: AccountCaller): string | null => (caller.kind === "key" ? caller.keyId : null);

export const ANONYMOUS: AnonymousCaller = { kind: "anonymous" };

/**
 * Where a request may carry an API key: `Authorization: Bearer <key>`, `X-API-Key: <key>`
 * (docs/spec/public-scanning-api.md §5.1), and, for the tool server only, the `key` query parameter (§5.2). The REST
 * endpoints never pass `query`: a key in a URL ends up in access logs and browser history.
 */
export type KeyCarriers = {
  authorization?: string | undefined;
  apiKey?: string | undefined;
  query?: string | undefined;
};

const KEY_HINT = "Send an API key in Authorization: Bearer <key> or X-API-Key: <key>.";
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const LOOKS_LIKE_JWT = /^[\w-]+\.[\w-]*\.[\w-]*$/;
const UserId = z.uuid();
/** last_used_at is advanced at most this often per key: one write a minute, not one per request */
const LAST_USED_RESOLUTION_MS = 60_000;

const refused = (message: string, hint = KEY_HINT) => new AppError("unauthenticated", message, hint);

const notAJwtEndpoint = () =>
  refused(
    "This endpoint takes an API key, not a JWT made outside a dashboard session",
    "The accounts command's JWTs authenticate only the key endpoints (/api/v1/keys): create an API key there and send it here, or use the JWT of a signed-in session (POST /auth/token) in Authorization: Bearer.",
  );

/** A key's row with its workspace's plan, as the lookup below selects it. */
const StoredKey = z.object({
  id: z.string(),
  user_id: z.string(),
  workspace_id: z.string(),
  plan: Plan,
  default_form: ResponseForm.nullable(),
  client_id: z.string().nullable(),
  read_only: z.boolean(),
  last_used_at: z.date().nullable(),
  revoked_at: z.date().nullable(),
});

/** A user with a session and the workspace it acts in, as the token check reads them in one query. */
const StoredUser = z.object({
  id: z.string(),
  role: Role,
  /** null: the session's workspace is no longer the user's (they were removed from it) */
  workspace_id: z.string().nullable(),
  plan: Plan.nullable(),
  workspace_role: WorkspaceRole.nullable(),
  revoked_at: z.date().nullable().optional(),
  last_seen_at: z.date().optional(),
  expires_at: z.date().optional(),
});

export type AuthenticatorDeps = {
  db: Db;
  verifyJwt: VerifyJwt | null;
  /** a session unused this long has ended, and so have its JWTs (SESSION_IDLE_S) */
  sessionIdleMs?: number;
  /** keys already read, while their changes are heard (see key-cache); none reads Postgres every time */
  cache?: KeyCache;
};

export type Authenticator = {
  /** The caller an API key identifies; null when no key was sent at all, 401 for a key that is not a live one. */
  byKey: (carriers: KeyCarriers) => Promise<KeyCaller | null>;
  /** The user a JWT in `Authorization: Bearer <JWT>` identifies; a revoked or ended session's token is refused. */
  byToken: (authorization: string | undefined) => Promise<UserCaller>;
  /** The caller of an endpoint that takes an API key or a dashboard session's JWT; null with no credential. */
  byAccount: (carriers: KeyCarriers) => Promise<AccountCaller | null>;
};

export const createAuthenticator = ({
  db,
  verifyJwt,
  cache,
  sessionIdleMs = Number.POSITIVE_INFINITY,
}: AuthenticatorDeps): Authenticator => {
  /** The stored key with this hash and its workspace's plan, from the cache or Postgres; undefined when unknown. */
  const lookUp = async (hash: string): Promise<KnownKey | undefined> => {
    const cached = cache?.get(hash);
    if (cached) return cached;
    const readAt = cache?.generation() ?? 0;
    // the key and its workspace's plan in one round trip: a Prisma include would send a second query
    const rows = await db.$queryRaw<unknown[]>`
      SELECT k."id", k."user_id", k."workspace_id", w."plan", k."default_form", k."client_id", k."read_only",
        k."last_used_at", k."revoked_at"
      FROM "api_keys" k JOIN "workspaces" w ON w."id" = k."workspace_id"
      WHERE k."hash" = ${hash}`;
    if (rows.length === 0) return undefined;
    const stored = StoredKey.parse(rows[0]);
    const known: KnownKey = {
      id: stored.id,
      userId: stored.user_id,
      workspaceId: stored.workspace_id,
      plan: stored.plan,
      defaultForm: stored.default_form,
      clientId: stored.client_id,
      readOnly: stored.read_only,
      revoked: stored.revoked_at !== null,
      lastUsedAt: stored.last_used_at?.getTime() ?? null,
    };
    cache?.set(hash, known, readAt);
    return known;
  };

  const bearerOf = (authorization: string): string => {
    const match = BEARER.exec(authorization);
    if (!match?.[1]) throw refused("The Authorization header must be Bearer <credential>");
    return match[1];
  };

  /**
   * The caller an API key identifies; null when no key was sent at all (anonymous). A key that
   * is sent and is not a live key of ours is 401: malformed and mistyped keys are told apart
   * by the checksum, without a database read.
   */
  const byKey = async (carriers: KeyCarriers): Promise<KeyCaller | null> => {
    const others = [carriers.apiKey?.trim(), carriers.query?.trim()].filter(
      (value) => value !== undefined && value !== "",
    );
    // another scheme in Authorization (a proxy's Basic credentials) is not ours to judge when a key is sent elsewhere
    const bearer =
      carriers.authorization === undefined || (others.length > 0 && !BEARER.test(carriers.authorization))
        ? undefined
        : bearerOf(carriers.authorization);
    const presented = [bearer, ...others].filter((value): value is string => value !== undefined);
    if (presented.length === 0) return null;
    if (new Set(presented).size > 1) throw refused("Two different API keys were sent", "Send one key, in one place.");
    const key = presented[0] as string;

    const check = checkApiKey(key);
    if (!check.ok && LOOKS_LIKE_JWT.test(key)) throw notAJwtEndpoint();
    if (!check.ok && check.reason === "format") {
      throw refused(
        "The API key is malformed",
        `API keys start with ${API_KEY_PREFIX} and are 45 characters long; check that it was copied whole.`,
      );
    }
    if (!check.ok) {
      throw refused(
        "The API key's checksum does not match: it was mistyped or altered",
        "Copy the key again from where you saved it.",
      );
    }

    const stored = await lookUp(hashApiKey(key));
    if (!stored) throw refused("The API key is not valid");
    if (stored.revoked) {
      throw refused("The API key has been revoked", "Create a new key with POST /api/v1/keys.");
    }
    const now = Date.now();
    if (stored.lastUsedAt === null || now - stored.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      // recorded on the cached entry too, so the next minute's requests do not write again
      stored.lastUsedAt = now;
      await db.apiKey.update({ where: { id: stored.id }, data: { lastUsedAt: new Date(now) } });
    }
    return {
      kind: "key",
      keyId: stored.id,
      userId: stored.userId,
      workspaceId: stored.workspaceId,
      plan: stored.plan,
      defaultForm: stored.defaultForm,
      clientId: stored.clientId,
      readOnly: stored.readOnly,
    };
  };

  /**
   * The user a token names, with its session when it carries one, and the workspace it acts in
   * (the session's current one, else the user's personal one) with the user's role there: one
   * query either way, so checking that the session lives costs no round trip more than finding
   * the user did. Undefined when there is no such user, or no such session of theirs.
   */
  const userOf = async (userId: string, sessionId: string | undefined) => {
    const rows = sessionId
      ? await db.$queryRaw<unknown[]>`
          SELECT u."id", u."role", s."revoked_at", s."last_seen_at", s."expires_at",
            m."workspace_id", w."plan", m."role" AS "workspace_role"
          FROM "users" u JOIN "sessions" s ON s."user_id" = u."id"
          LEFT JOIN "workspaces" p ON p."personal_user_id" = u."id"
          LEFT JOIN "memberships" m ON m."user_id" = u."id" AND m."workspace_id" = COALESCE(s."workspace_id", p."id")
          LEFT JOIN "workspaces" w ON w."id" = m."workspace_id"
          WHERE u."id" = ${userId}::uuid AND s."id" = ${sessionId}::uuid`
      : await db.$queryRaw<unknown[]>`
          SELECT u."id", u."role", m."workspace_id", w."plan", m."role" AS "workspace_role"
          FROM "users" u
          LEFT JOIN "workspaces" w ON w."personal_user_id" = u."id"
          LEFT JOIN "memberships" m ON m."user_id" = u."id" AND m."workspace_id" = w."id"
          WHERE u."id" = ${userId}::uuid`;
    return rows.length === 0 ? undefined : StoredUser.parse(rows[0]);
  };

  /**
   * The user a JWT in `Authorization: Bearer <JWT>` identifies: the key endpoints
   * (docs/spec/public-scanning-api.md §4.7) take any of this service's JWTs; a token of a
   * dashboard session (`sid`) is refused once its session is revoked or has ended.
   */
  const byToken = async (authorization: string | undefined): Promise<UserCaller> => {
    if (!verifyJwt) {
      throw new AppError(
        "service_unavailable",
        "Key management is not configured on this server",
        "The operator must set JWT_SECRET (or JWT_ALGORITHM=RS256 with JWT_PUBLIC_KEY).",
      );
    }
    const tokenHint = "Send a JWT in Authorization: Bearer <token>.";
    if (authorization === undefined) throw refused("The key endpoints need a JWT", tokenHint);
    const token = bearerOf(authorization);
    if (token.startsWith(API_KEY_PREFIX)) {
      throw refused("The key endpoints take a JWT, not an API key", tokenHint);
    }
    const claims = verifyJwt(token);
    const userId = UserId.safeParse(claims.sub);
    if (!userId.success) throw refused("The token's subject is not a user of this service", tokenHint);
    const sessionId = claims.sid === undefined ? undefined : UserId.safeParse(claims.sid);
    if (sessionId && !sessionId.success) throw refused("The token's session is not valid", tokenHint);
    const user = await userOf(userId.data, sessionId?.data);
    if (!user) {
      throw refused(
        sessionId ? "The token's session is not valid" : "The token's subject is not a user of this service",
        tokenHint,
      );
    }
    if (sessionId) {
      const ended =
        user.revoked_at !== null ||
        (user.expires_at?.getTime() ?? 0) <= Date.now() ||
        (user.last_seen_at?.getTime() ?? 0) + sessionIdleMs <= Date.now();
      if (ended) throw refused("The session this token was issued for has ended", "Sign in again.");
    }
    if (user.workspace_id === null || user.plan === null || user.workspace_role === null) {
      throw refused(
        "You are no longer a member of this session's workspace",
        "Sign in again, or switch to another of your workspaces with POST /api/v1/workspaces/:id/switch.",
      );
    }
    return {
      kind: "user",
      userId: user.id,
      workspaceId: user.workspace_id,
      workspaceRole: user.workspace_role,
      plan: user.plan,
      role: user.role,
      claims,
      sessionId: sessionId?.data ?? null,
    };
  };

  /**
   * The caller of an endpoint that takes an API key or a dashboard session's JWT (every
   * /api/v1 endpoint but the key endpoints): a JWT in `Authorization: Bearer` must carry a
   * session; the accounts CLI's tokens stay for the key endpoints alone. Null with no credential.
   */
  const byAccount = async (carriers: KeyCarriers): Promise<AccountCaller | null> => {
    const bearer = carriers.authorization === undefined ? undefined : BEARER.exec(carriers.authorization)?.[1];
    const jwt = bearer !== undefined && LOOKS_LIKE_JWT.test(bearer) && !checkApiKey(bearer).ok;
    if (!jwt || carriers.apiKey?.trim()) return byKey(carriers);
    const caller = await byToken(carriers.authorization);
    if (caller.sessionId === null) throw notAJwtEndpoint();
    return caller;
  };

  return { byKey, byToken, byAccount };
};
