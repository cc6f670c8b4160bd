import {
  type AiEngine,
  AppError,
  type DeletedEngineKey,
  type EngineKeyView,
  type SetEngineKeyRequest,
  type WorkspaceRole,
} from "@scan/contract";
import type { Db } from "@scan/db";
import type { SecretBox } from "@scan/platform";
import { visibility } from "@scan/records";
import { toEngineKeyView } from "./visibility-views";

const MANAGERS: ReadonlySet<WorkspaceRole> = new Set(["owner", "admin"]);

const unconfigured = () =>
  new AppError(
    "service_unavailable",
    "Engine keys cannot be stored: this service has no key to seal them with",
    "The operator sets SITE_SECRETS_KEY (32 bytes in base64) on the gateway and the worker; see docs/visibility.md.",
  );

const workspaceNotFound = (id: string) =>
  new AppError("not_found", `No workspace with id ${id}`, "Use a workspace id from GET /api/v1/workspaces.");

const needsManager = (role: WorkspaceRole) =>
  new AppError(
    "forbidden",
    `Your role in this workspace is ${role}; its engine keys are for its owners and admins`,
    "Ask an owner or admin of the workspace.",
  );

const noKey = (engine: AiEngine) =>
  new AppError(
    "not_found",
    `The workspace has no ${engine} key`,
    "PUT /api/v1/workspaces/{id}/engine-keys/{engine} with api_key sets one.",
  );

export type EngineKeyService = {
  /** The workspace's engine keys, by engine: never a key, only its last four characters. An owner's or admin's. */
  list: (userId: string, workspaceId: string) => Promise<EngineKeyView[]>;
  /** Sets the workspace's key for an engine, sealed before it reaches Postgres; `created` when it had none. */
  set: (
    userId: string,
    workspaceId: string,
    engine: AiEngine,
    input: SetEngineKeyRequest,
  ) => Promise<{ key: EngineKeyView; created: boolean }>;
  /** Removes the workspace's key for an engine. */
  remove: (userId: string, workspaceId: string, engine: AiEngine) => Promise<DeletedEngineKey>;
};

/**
 * A workspace's own keys for the AI engines' APIs, one per engine: set (sealed with the
 * deployment's key, as site credentials are), listed by their last four characters, removed.
 * Only the worker that asks the engines opens them.
 */
export const createEngineKeyService = ({ db, box }: { db: Db; box: SecretBox | null }): EngineKeyService => {
  /** The caller's role decides: a workspace they are not a member of is 404, as an unknown one is. */
  const managing = async (userId: string, workspaceId: string) => {
    const membership = await db.membership.findUnique({
      where: { workspaceId_userId: { workspaceId, userId } },
      select: { role: true },
    });
    if (!membership) throw workspaceNotFound(workspaceId);
    if (!MANAGERS.has(membership.role)) throw needsManager(membership.role);
  };

  const list = async (userId: string, workspaceId: string) => {
    await managing(userId, workspaceId);
    const keys = await db.engineKey.findMany({
      where: { workspaceId },
      select: { engine: true, model: true, keyLast4: true, createdAt: true, updatedAt: true },
      orderBy: { engine: "asc" },
    });
    return keys.map(toEngineKeyView);
  };

  const set = async (userId: string, workspaceId: string, engine: AiEngine, input: SetEngineKeyRequest) => {
    await managing(userId, workspaceId);
    if (!box) throw unconfigured();
    const { key, created } = await visibility.setEngineKey(
      db,
      { workspaceId, userId },
      { engine, keySealed: box.seal(input.api_key), keyLast4: input.api_key.slice(-4), model: input.model ?? null },
    );
    return { key: toEngineKeyView(key), created };
  };

  const remove = async (userId: string, workspaceId: string, engine: AiEngine) => {
    await managing(userId, workspaceId);
    const { moved } = await visibility.removeEngineKey(db, workspaceId, engine);
    if (!moved) throw noKey(engine);
    return { engine, deleted: true as const };
  };

  return { list, set, remove };
};
