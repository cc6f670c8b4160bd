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
import { clients as clientRows } from "@scan/records";

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
  create: (workspaceId: string, input: CreateClientRequest) => Promise<ClientView>;
  update: (workspaceId: string, clientId: string, input: UpdateClientRequest) => Promise<ClientView>;
  /** Deletes a client; its sites stay, with no client. 409 while a live API key is limited to it. */
  remove: (workspaceId: string, clientId: string) => Promise<DeletedRecord>;
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

  const create = async (workspaceId: string, input: CreateClientRequest) => {
    const client = await clientRows.insert(db, workspaceId, {
      name: input.name,
      notes: input.notes ?? null,
      scanQuota: input.scan_quota ?? null,
      auditQuota: input.audit_quota ?? null,
    });
    if (!client) throw nameTaken(input.name);
    return get(workspaceId, client.id);
  };

  const update = async (workspaceId: string, clientId: string, input: UpdateClientRequest) => {
    try {
      const { moved } = await clientRows.update(db, workspaceId, clientId, {
        name: input.name,
        notes: input.notes,
        scanQuota: input.scan_quota,
        auditQuota: input.audit_quota,
      });
      if (!moved) throw clientNotFound(clientId);
    } catch (error) {
      if (isNameClash(error)) throw nameTaken(input.name ?? "");
      throw error;
    }
    return get(workspaceId, clientId);
  };

  const remove = async (workspaceId: string, clientId: string): Promise<DeletedRecord> => {
    await get(workspaceId, clientId);
    const keys = await db.apiKey.count({ where: { workspaceId, clientId, revokedAt: null } });
    const refusal = new AppError(
      "conflict",
      `${keys || "Some"} live API key${keys === 1 ? " is" : "s are"} limited to this client`,
      "Revoke the client's keys (DELETE /api/v1/keys/:id) first: deleting the client would open the workspace to them.",
    );
    if (keys > 0) throw refusal;
    try {
      const { moved } = await clientRows.remove(db, workspaceId, clientId);
      if (!moved) throw clientNotFound(clientId);
    } catch (error) {
      // a key made for the client meanwhile: the database keeps a live key's client (api_keys_keep_client)
      if (error instanceof Error && /a live API key keeps its client/.test(error.message)) throw refusal;
      throw error;
    }
    return { id: clientId, deleted: true };
  };

  return { list, get, create, update, remove };
};
