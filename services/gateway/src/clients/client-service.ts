import {
  AppError,
  type ClientListQuery,
  type ClientView,
  type CreateClientRequest,
  type DeletedRecord,
  offsetOf,
  type PageMeta,
  pageMeta,
  type UpdateClientRequest,
} from "@scan/contract";
import type { Client, Db } from "@scan/db";
import { type Actor, auditLog, clients as clientRows } from "@scan/records";

export const clientNotFound = (id: string) =>
  new AppError("not_found", `No client with id ${id}`, "Use a client id from GET /api/v1/clients.");

const nameTaken = (name: string) =>
  new AppError("conflict", `The workspace already has a client named ${name}`, "Choose another name.");

/** Newest first; the id breaks ties. Served by (workspace_id, created_at, id). */
const ORDER = [{ createdAt: "desc" as const }, { id: "desc" as const }];

const toClientView = (client: Client & { _count: { sites: number } }): ClientView => ({
  id: client.id,
  name: client.name,
  notes: client.notes,
  site_count: client._count.sites,
  scan_quota: client.scanQuota,
  audit_quota: client.auditQuota,
  audit_page_quota: client.auditPageQuota,
  created_at: client.createdAt.toISOString(),
  updated_at: client.updatedAt.toISOString(),
});

/** Whether a Prisma error is the (workspace_id, name) unique index refusing a second client of that name. */
const isNameClash = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";

export type ClientService = {
  /** The workspace's clients, newest first; `client_id` (a client-scoped key's) keeps that one. */
  list: (
    workspaceId: string,
    query: ClientListQuery & { client_id?: string },
  ) => Promise<{ clients: ClientView[]; meta: PageMeta }>;
  get: (workspaceId: string, clientId: string) => Promise<ClientView>;
  /** Makes a client, recorded in the audit log as `actor`'s. */
  create: (workspaceId: string, input: CreateClientRequest, actor: Actor) => Promise<ClientView>;
  update: (workspaceId: string, clientId: string, input: UpdateClientRequest, actor: Actor) => Promise<ClientView>;
  /** Deletes a client; its sites stay, with no client. 409 while a live API key is limited to it. */
  remove: (workspaceId: string, clientId: string, actor: Actor) => Promise<DeletedRecord>;
};

/** A workspace's clients: named groups of its sites. Another workspace's client is 404. */
export const createClientService = ({ db }: { db: Db }): ClientService => {
  const withCount = { _count: { select: { sites: true } } } as const;

  const list = async (workspaceId: string, query: ClientListQuery & { client_id?: string }) => {
    const where = { workspaceId, ...(query.client_id === undefined ? {} : { id: query.client_id }) };
    const [total, rows] = await db.$transaction(
      [
        db.client.count({ where }),
        db.client.findMany({ where, include: withCount, orderBy: ORDER, skip: offsetOf(query), take: query.limit }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { clients: rows.map(toClientView), meta: pageMeta(query, total) };
  };

  const get = async (workspaceId: string, clientId: string) => {
    const client = await db.client.findFirst({ where: { id: clientId, workspaceId }, include: withCount });
    if (!client) throw clientNotFound(clientId);
    return toClientView(client);
  };

  /** A client's fields as the audit log shows them: the notes' first 200 characters, to keep entries small. */
  const logged = (client: Pick<Client, "name" | "notes" | "scanQuota" | "auditQuota" | "auditPageQuota">) => ({
    name: client.name,
    notes: client.notes === null ? null : client.notes.slice(0, 200),
    scan_quota: client.scanQuota,
    audit_quota: client.auditQuota,
    audit_page_quota: client.auditPageQuota,
  });

  const create = async (workspaceId: string, input: CreateClientRequest, actor: Actor) => {
    const client = await db.$transaction(async (tx) => {
      const made = await clientRows.insert(tx, workspaceId, {
        name: input.name,
        notes: input.notes ?? null,
        scanQuota: input.scan_quota ?? null,
        auditQuota: input.audit_quota ?? null,
        auditPageQuota: input.audit_page_quota ?? null,
      });
      if (!made) throw nameTaken(input.name);
      await auditLog.append(tx, workspaceId, actor, {
        action: "client.created",
        target: { type: "client", id: made.id },
        changes: logged(made),
      });
      return made;
    });
    return get(workspaceId, client.id);
  };

  const update = async (workspaceId: string, clientId: string, input: UpdateClientRequest, actor: Actor) => {
    try {
      await db.$transaction(async (tx) => {
        const before = await tx.client.findFirst({ where: { id: clientId, workspaceId } });
        if (!before) throw clientNotFound(clientId);
        const change = {
          name: input.name,
          notes: input.notes,
          scanQuota: input.scan_quota,
          auditQuota: input.audit_quota,
          auditPageQuota: input.audit_page_quota,
        };
        const { moved } = await clientRows.update(tx, workspaceId, clientId, change);
        if (!moved) throw clientNotFound(clientId);
        const after = { ...before, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
        await auditLog.append(tx, workspaceId, actor, {
          action: "client.changed",
          target: { type: "client", id: clientId },
          changes: auditLog.changed(logged(before), logged(after)),
        });
      });
    } catch (error) {
      if (isNameClash(error)) throw nameTaken(input.name ?? "");
      throw error;
    }
    return get(workspaceId, clientId);
  };

  const remove = async (workspaceId: string, clientId: string, actor: Actor): Promise<DeletedRecord> => {
    const client = await get(workspaceId, clientId);
    const keys = await db.apiKey.count({ where: { workspaceId, clientId, revokedAt: null } });
    const refusal = new AppError(
      "conflict",
      `${keys || "Some"} live API key${keys === 1 ? " is" : "s are"} limited to this client`,
      "Revoke the client's keys (DELETE /api/v1/keys/:id) first: deleting the client would open the workspace to them.",
    );
    if (keys > 0) throw refusal;
    try {
      await db.$transaction(async (tx) => {
        const { moved } = await clientRows.remove(tx, workspaceId, clientId);
        if (!moved) throw clientNotFound(clientId);
        await auditLog.append(tx, workspaceId, actor, {
          action: "client.deleted",
          target: { type: "client", id: clientId },
          changes: { name: client.name, sites_unassigned: client.site_count },
        });
      });
    } catch (error) {
      // a key made for the client meanwhile: the database keeps a live key's client (api_keys_keep_client)
      if (error instanceof Error && /a live API key keeps its client/.test(error.message)) throw refusal;
      throw error;
    }
    return { id: clientId, deleted: true };
  };

  return { list, get, create, update, remove };
};
