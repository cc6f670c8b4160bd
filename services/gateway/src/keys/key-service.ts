import type { ApiKeyView, CreatedApiKey, CreateKeyRequest, PageMeta, PageQuery, Plan } from "@scan/contract";
import { AppError } from "@scan/contract";
import type { ApiKey, Db } from "@scan/db";
import { generateApiKey } from "@scan/platform";
import { type Actor, auditLog } from "@scan/records";
import { actorOutsideRequests } from "../access/actor";
import { withUserLock } from "../access/user-lock";

export type KeyServiceDeps = {
  db: Db;
  maxKeysPerUser: number;
  /** told of each key revoked, after it is committed */
  onRevoked?: (keyId: string) => void;
};

export const toApiKeyView = (key: ApiKey, plan: Plan): ApiKeyView => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  plan,
  default_form: key.defaultForm,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
  client_id: key.clientId,
  read_only: key.readOnly,
});

/**
 * The workspace keys are managed in, and the member managing them (who makes a key is its
 * maker). `id` is the workspace's.
 */
export type KeyOwner = { workspaceId: string; userId: string; plan: Plan };

/** A user's personal workspace as a key owner: where the accounts CLI and the tests make keys. */
export const personalKeyOwner = async (db: Db, user: { id: string }): Promise<KeyOwner> => {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { personalUserId: user.id } });
  return { workspaceId: workspace.id, userId: user.id, plan: workspace.plan };
};

const notFound = (id: string) =>
  new AppError("not_found", `No API key with id ${id}`, "List your keys with GET /api/v1/keys.");

export type KeyService = {
  /** The workspace's live keys, newest first. */
  list: (user: KeyOwner, page: PageQuery) => Promise<{ keys: ApiKeyView[]; meta: PageMeta }>;
  /** Creates a key, within the most keys a workspace may hold; the secret is in this answer only. */
  /** `actor` as the audit log records it; by default the member `user` acting outside a request (the accounts CLI). */
  create: (user: KeyOwner, input: CreateKeyRequest, actor?: Actor) => Promise<CreatedApiKey>;
  /** Revokes one of the workspace's keys; a key of another workspace, unknown or already revoked is 404. */
  revoke: (user: KeyOwner, id: string, actor?: Actor) => Promise<ApiKeyView>;
};

/** A workspace's API keys: list, create (the key is returned once), revoke. Another workspace's key is 404. */
export const createKeyService = ({ db, maxKeysPerUser, onRevoked }: KeyServiceDeps): KeyService => {
  const list = async (user: KeyOwner, page: PageQuery) => {
    const where = { workspaceId: user.workspaceId, revokedAt: null };
    const [total, keys] = await Promise.all([
      db.apiKey.count({ where }),
      db.apiKey.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "asc" }],
        skip: (page.page - 1) * page.limit,
        take: page.limit,
      }),
    ]);
    const meta: PageMeta = { page: page.page, limit: page.limit, total, hasMore: page.page * page.limit < total };
    return { keys: keys.map((key) => toApiKeyView(key, user.plan)), meta };
  };

  const create = (
    user: KeyOwner,
    input: CreateKeyRequest,
    actor = actorOutsideRequests(user.userId),
  ): Promise<CreatedApiKey> =>
    withUserLock(db, "api-keys", user.workspaceId, async (tx) => {
      const active = await tx.apiKey.count({ where: { workspaceId: user.workspaceId, revokedAt: null } });
      if (active >= maxKeysPerUser) {
        throw new AppError(
          "forbidden",
          `This workspace has ${active} active API keys, the most allowed`,
          "Delete a key you no longer use with DELETE /api/v1/keys/:id, then create the new one.",
        );
      }
      const clientId = input.client_id ?? null;
      if (clientId !== null) {
        const client = await tx.client.findFirst({ where: { id: clientId, workspaceId: user.workspaceId } });
        if (!client)
          throw new AppError("not_found", `No client with id ${clientId}`, "Use a client id from GET /api/v1/clients.");
      }
      const { key, hash, prefix } = generateApiKey();
      const stored = await tx.apiKey.create({
        data: {
          workspaceId: user.workspaceId,
          userId: user.userId,
          name: input.name ?? null,
          prefix,
          hash,
          defaultForm: input.default_form ?? null,
          clientId,
          readOnly: input.read_only ?? false,
        },
      });
      // the prefix is public (listed with the key); the key and its hash are never logged
      await auditLog.append(tx, user.workspaceId, actor, {
        action: "key.created",
        target: { type: "key", id: stored.id },
        changes: { name: stored.name, prefix: stored.prefix, client_id: stored.clientId, read_only: stored.readOnly },
      });
      return { ...toApiKeyView(stored, user.plan), key };
    });

  /** Revokes one of the workspace's keys; a key of another workspace, unknown or already revoked is 404. */
  const revoke = async (user: KeyOwner, id: string, actor = actorOutsideRequests(user.userId)): Promise<ApiKeyView> => {
    await db.$transaction(async (tx) => {
      const { count } = await tx.apiKey.updateMany({
        where: { id, workspaceId: user.workspaceId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count === 0) throw notFound(id);
      const key = await tx.apiKey.findUniqueOrThrow({ where: { id } });
      await auditLog.append(tx, user.workspaceId, actor, {
        action: "key.revoked",
        target: { type: "key", id },
        changes: { name: key.name, prefix: key.prefix, client_id: key.clientId },
      });
    });
    onRevoked?.(id);
    return toApiKeyView(await db.apiKey.findUniqueOrThrow({ where: { id } }), user.plan);
  };

  return { list, create, revoke };
};
