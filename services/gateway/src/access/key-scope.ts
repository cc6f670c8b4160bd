import { AppError, normaliseScanUrl, type ResponseForm, siteOriginOf } from "@scan/contract";
import type { Db } from "@scan/db";
import type { Caller, KeyCaller } from "./authenticate";

/**
 * What an API key may reach beyond its workspace's bounds, enforced here for every route and
 * every MCP tool (http/route.ts and mcp/tool-server.ts call this before any handler runs):
 *
 * - a **read-only** key's every write (any method but GET, HEAD, OPTIONS; a tool that scans or
 *   starts an audit) is 403 `read_only_key`;
 * - a **client-scoped** key sees and acts on that client's sites and what hangs off them (their
 *   audits, schedules, alerts, history, keywords, citation tracks, and the scans of URLs of their
 *   origins): another client's, an unassigned site's or a missing record is the same 404; a list
 *   is the client's alone; a scan or audit is of a URL of one of the client's sites' origins
 *   (403 for any other URL, the same answer whether the origin is anyone's site or not);
 *   workspace-level changes (adding a site, assigning a site to a client, managing clients) are 403.
 *
 * Every route that a key can call declares what it reaches (`reach` on its declaration, one of
 * `KEY_REACH`) unless it sits under a record's own path; a route added without one stops the app
 * from building (`assertRulesCover`), so nothing new is open by default.
 */

/** What a rule reads of a request: the inputs the route parsed. */
export type ScopedInput = { params: unknown; query: unknown; body: unknown; form: ResponseForm };

type Kind = "site" | "scan" | "audit" | "keyword" | "citation" | "client" | "visibility run";

/**
 * What a route reaches, for a client-scoped key: declared on the route (`reach`, from
 * `KEY_REACH`), or, for a path under a record's own path, that record by its `:id`.
 */
export type KeyReach =
  /** a record named by a path parameter: outside the client is 404 */
  | { record: Kind; param: string }
  /** a list: its `client_id` filter is the key's client (another is 404) and its `site_id` the client's */
  | { list: true }
  /** a body naming a site by `site_id` */
  | { bodySite: true }
  /** a computation that may name a visibility run by `runId`: outside the client is 404 */
  | { bodyRun: true }
  /** a body naming URLs to scan: each of an origin of the client's sites */
  | { urls: (body: unknown) => string[] }
  /** nothing of any client's: the caller's plan and quota, a computation on the text sent */
  | { open: true }
  /** a change of the workspace's shape, not a client's records: 403 for a client-scoped key */
  | { workspace: true };

const field = (body: unknown, name: string): unknown =>
  typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
const oneUrl = (body: unknown): string[] => {
  const url = field(body, "url");
  return typeof url === "string" ? [url] : [];
};
const manyUrls = (body: unknown): string[] => {
  const urls = field(body, "urls");
  return Array.isArray(urls) ? urls.filter((url): url is string => typeof url === "string") : [];
};

/** The reaches a route declares (`reach` on its declaration): by what of the request names the records. */
export const KEY_REACH = {
  /** a body naming one URL to scan (`url`): of an origin of the client's sites */
  oneUrl: { urls: oneUrl },
  /** a body naming URLs to scan (`urls`): each of an origin of the client's sites */
  manyUrls: { urls: manyUrls },
  /** a list: its `client_id` filter is the key's client and its `site_id` one of the client's sites */
  list: { list: true },
  /** a body naming a site by `site_id` */
  bodySite: { bodySite: true },
  /** a computation on the text sent, or on a stored visibility run named by `runId`: the client's runs only */
  bodyRun: { bodyRun: true },
  /** nothing of any client's: the caller's plan and quota, a computation on the text sent */
  open: { open: true },
  /** a change of the workspace's shape: 403 for a client-scoped key */
  workspace: { workspace: true },
} as const satisfies Record<string, KeyReach>;

/** Paths under a record's own path belong to that record. */
const RECORD_PATHS: readonly [string, Kind][] = [
  ["/api/v1/scan/:id", "scan"],
  ["/api/v1/sites/:id", "site"],
  ["/api/v1/audits/:id", "audit"],
  ["/api/v1/keywords/:id", "keyword"],
  ["/api/v1/citations/:id", "citation"],
  ["/api/v1/clients/:id", "client"],
  // a run is its site's: outside the client when its site is
  ["/api/v1/visibility/runs/:id", "visibility run"],
];

/** What a client-scoped key may not change even of its own client: the client itself. */
const WORKSPACE_WRITES = new Set(["PATCH /api/v1/clients/:id", "DELETE /api/v1/clients/:id"]);

/** A route as the scope reads it: its method, path and the reach it declares. */
export type ScopedRoute = { method: string; path: string; reach?: KeyReach | undefined };

const ruleOf = ({ path, reach }: ScopedRoute): KeyReach | undefined => {
  if (reach) return reach;
  const record = RECORD_PATHS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
  return record ? { record: record[1], param: "id" } : undefined;
};

/** The routes a key can call (authorization `anyone`, `account`, `account-or-link`, `account-or-cookie`) each have a rule. */
export const assertRulesCover = (routes: readonly (ScopedRoute & { authorization: unknown })[]) => {
  const keyed = new Set(["anyone", "account", "account-or-link", "account-or-cookie"]);
  const missing = routes
    .filter((route) => typeof route.authorization === "string" && keyed.has(route.authorization))
    .filter((route) => ruleOf(route) === undefined)
    .map((route) => `${route.method.toUpperCase()} ${route.path}`);
  if (missing.length > 0)
    throw new Error(`No key reach declared for ${missing.join(", ")} (\`reach\` on the route, KEY_REACH)`);
};

const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

const readOnlyRefusal = () =>
  new AppError(
    "read_only_key",
    "This API key is read-only: it reads and does not write",
    "Use a read-write key of the workspace for this request, or ask a member to make one (POST /api/v1/keys).",
  );

const workspaceRefusal = () =>
  new AppError(
    "forbidden",
    "This API key is limited to one client: it does not change the workspace's clients or add sites",
    "A member of the workspace adds sites and assigns them to clients, with a session or a workspace-wide key.",
  );

const outsideRefusal = (origin: string) =>
  new AppError(
    "forbidden",
    `This API key is limited to one client, and ${origin} is not the origin of one of its sites`,
    "Scan URLs of the client's sites (GET /api/v1/sites lists them); a member assigns other sites to the client.",
  );

const notFound = (kind: Kind, id: string) =>
  new AppError(
    "not_found",
    `No ${kind === "citation" ? "citation track" : kind} with id ${id}`,
    kind === "client" ? "Use a client id from GET /api/v1/clients." : `Use an id from the ${kind} list.`,
  );

/** Refuses a read-only key's write (any method but GET, HEAD, OPTIONS); throws, or returns to let the request on. */
export const assertMayWrite = (caller: Caller | undefined, method: string) => {
  if (caller?.kind === "key" && caller.readOnly && !READ_METHODS.has(method.toUpperCase())) throw readOnlyRefusal();
};

/**
 * What an MCP tool call reaches: the URLs it scans, the audit it reads, the site whose records it
 * reads or changes, whether it makes or changes anything.
 */
export type ToolReach = {
  urls: string[];
  auditId?: string | undefined;
  siteId?: string | undefined;
  /** a visibility run: its site's, so outside the client when its site is */
  runId?: string | undefined;
  writes: boolean;
};

export type KeyScope = {
  /**
   * Refuses a client-scoped key what is outside its client; returns the query the route then
   * reads (a list's `client_id` set to the key's client).
   */
  check: (route: ScopedRoute, caller: Caller | undefined, input: ScopedInput) => Promise<unknown>;
  /** The same for an MCP tool call: `writes` when the call scans or starts something. */
  checkTool: (caller: Caller, call: ToolReach) => Promise<void>;
};

export const createKeyScope = ({ db }: { db: Db }): KeyScope => {
  /** Whether the record is of the client: one query each, on the indexes the record's own lookups use. */
  const ofClient = async (kind: Kind, id: string, caller: KeyCaller & { clientId: string }): Promise<boolean> => {
    const { workspaceId, clientId } = caller;
    const inClient = { workspaceId, clientId };
    switch (kind) {
      case "client":
        return id === clientId;
      case "site":
        return (await db.site.count({ where: { id, ...inClient } })) > 0;
      case "audit":
        return (await db.audit.count({ where: { id, workspaceId, site: { clientId } } })) > 0;
      case "keyword":
        return (await db.keyword.count({ where: { id, workspaceId, site: { clientId } } })) > 0;
      case "citation":
        return (await db.citationTrack.count({ where: { id, workspaceId, site: { clientId } } })) > 0;
      case "visibility run":
        return (await db.visibilityRun.count({ where: { id, workspaceId, site: { clientId } } })) > 0;
      case "scan": {
        const scan = await db.scan.findFirst({ where: { id, workspaceId }, select: { url: true } });
        if (!scan) return false;
        return (await db.site.count({ where: { ...inClient, url: siteOriginOf(scan.url).url } })) > 0;
      }
    }
  };

  const assertUrls = async (caller: KeyCaller & { clientId: string }, urls: string[], form: ResponseForm) => {
    const origins = new Set<string>();
    // a URL the scan rules refuse is the route's own 400, answered after this
    for (const url of urls) {
      const normalised = normaliseScanUrl(url, form);
      if (normalised.ok) origins.add(siteOriginOf(normalised.url).url);
    }
    if (origins.size === 0) return;
    const known = await db.site.findMany({
      where: { workspaceId: caller.workspaceId, clientId: caller.clientId, url: { in: [...origins] } },
      select: { url: true },
    });
    const mine = new Set(known.map((site) => site.url));
    const outside = [...origins].find((origin) => !mine.has(origin));
    if (outside !== undefined) throw outsideRefusal(outside);
  };

  const check = async (route: ScopedRoute, caller: Caller | undefined, input: ScopedInput): Promise<unknown> => {
    if (caller?.kind !== "key" || caller.clientId === null) return input.query;
    const scoped = { ...caller, clientId: caller.clientId };
    const rule = ruleOf(route);
    // a route without a rule is never reached by a client-scoped key (assertRulesCover at build)
    if (rule === undefined) throw notFound("site", "");
    if ("record" in rule) {
      const id = field(input.params, rule.param);
      if (typeof id !== "string" || !(await ofClient(rule.record, id, scoped))) throw notFound(rule.record, String(id));
      if (WORKSPACE_WRITES.has(`${route.method.toUpperCase()} ${route.path}`)) throw workspaceRefusal();
      // a site's client is the workspace's to change
      if (route.path === "/api/v1/sites/:id" && field(input.body, "client_id") !== undefined) throw workspaceRefusal();
      return input.query;
    }
    if ("list" in rule) {
      const asked = field(input.query, "client_id");
      if (asked !== undefined && asked !== scoped.clientId) throw notFound("client", String(asked));
      const site = field(input.query, "site_id");
      if (typeof site === "string" && !(await ofClient("site", site, scoped))) throw notFound("site", site);
      return { ...(input.query as object), client_id: scoped.clientId };
    }
    if ("bodySite" in rule) {
      const site = field(input.body, "site_id");
      if (typeof site === "string" && !(await ofClient("site", site, scoped))) throw notFound("site", site);
      return input.query;
    }
    if ("bodyRun" in rule) {
      const run = field(input.body, "runId");
      if (typeof run === "string" && !(await ofClient("visibility run", run.toLowerCase(), scoped)))
        throw notFound("visibility run", run);
      return input.query;
    }
    if ("urls" in rule) {
      await assertUrls(scoped, rule.urls(input.body), input.form);
      return input.query;
    }
    if ("workspace" in rule) throw workspaceRefusal();
    return input.query;
  };

  const checkTool = async (caller: Caller, call: ToolReach) => {
    if (caller.kind !== "key") return;
    if (caller.readOnly && call.writes) throw readOnlyRefusal();
    if (caller.clientId === null) return;
    const scoped = { ...caller, clientId: caller.clientId };
    const auditId = call.auditId?.toLowerCase();
    if (auditId !== undefined && !(await ofClient("audit", auditId, scoped))) throw notFound("audit", auditId);
    const siteId = call.siteId?.toLowerCase();
    if (siteId !== undefined && !(await ofClient("site", siteId, scoped))) throw notFound("site", siteId);
    const runId = call.runId?.toLowerCase();
    if (runId !== undefined && !(await ofClient("visibility run", runId, scoped))) {
      throw notFound("visibility run", runId);
    }
    // MCP tools answer in Form B's terms
    await assertUrls(scoped, call.urls, "B");
  };

  return { check, checkTool };
};
