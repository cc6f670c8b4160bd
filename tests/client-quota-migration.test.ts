import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { cp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_DIR, migrateDeploy } from "@scan/db";
import { Client } from "pg";
import { createTestDatabase, type TestDatabase } from "./support/services";

/**
 * The backfills of the migrations that count usage, on rows as the releases before them wrote
 * them. `20261129110000_client_quotas`: each past audit counts for its site's client, each past
 * scan for its key's client, else for the client of its workspace's site of the URL's origin,
 * else for none; no client gets a quota. `20261129160000_usage_by_key`: a past audit gets the key
 * whose audit-log entry shares its request in its workspace, and no other.
 */

const CLIENT_QUOTAS = "20261129110000_client_quotas";
const USAGE_BY_KEY = "20261129160000_usage_by_key";

/** A copy of the migrations before `name`: the schema of the release before it. */
const migrationsBefore = async (name: string): Promise<string> => {
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  for (const entry of await readdir(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name < name)
      await cp(join(MIGRATIONS_DIR, entry.name), join(dir, entry.name), { recursive: true });
  }
  return dir;
};

describe("the usage migrations' backfills", () => {
  let database: TestDatabase;
  let client: Client;
  const dirs: string[] = [];
  const ids: Record<string, string> = {};

  const sql = (text: string, values: unknown[] = []) => client.query(text, values);
  const one = async <T>(text: string, values: unknown[] = []): Promise<T> => (await sql(text, values)).rows[0] as T;

  /** A user and their personal workspace (the database makes it with the user). */
  const user = async (email: string) => {
    const id = randomUUID();
    await sql(`INSERT INTO users (id, email, plan) VALUES ($1, $2, 'agency')`, [id, email]);
    const { id: workspace } = await one<{ id: string }>(`SELECT id FROM workspaces WHERE personal_user_id = $1`, [id]);
    return { id, workspace };
  };
  const clientOf = async (workspace: string, name: string) => {
    const id = randomUUID();
    await sql(`INSERT INTO clients (id, workspace_id, name) VALUES ($1, $2, $3)`, [id, workspace, name]);
    return id;
  };
  // that release names the workspace of a row with a client, as its writers did
  const siteOf = async (owner: { id: string; workspace: string }, url: string, clientId: string | null) => {
    const id = randomUUID();
    await sql(
      `INSERT INTO sites (id, user_id, workspace_id, url, domain, name, client_id, updated_at) VALUES ($1, $2, $3, $4, $5, $5, $6, now())`,
      [id, owner.id, owner.workspace, url, new URL(url).hostname, clientId],
    );
    return id;
  };
  const keyOf = async (owner: { id: string; workspace: string }, clientId: string | null) => {
    const id = randomUUID();
    await sql(
      `INSERT INTO api_keys (id, user_id, workspace_id, prefix, hash, client_id) VALUES ($1, $2, $3, 'sk_live_x', $4, $5)`,
      [id, owner.id, owner.workspace, `hash-${id}`, clientId],
    );
    return id;
  };
  const scanOf = async (url: string, owner: { userId: string | null; keyId: string | null }) => {
    const id = randomUUID();
    await sql(
      `INSERT INTO scans (id, url, mode, status, user_id, api_key_id, access_token_hash, created_at, updated_at)
       VALUES ($1, $2, 'quick', 'completed', $3, $4, $5, now(), now())`,
      [id, url, owner.userId, owner.keyId, owner.userId === null ? `anon-${id}` : null],
    );
    return id;
  };
  const auditOf = async (userId: string, siteId: string, url: string, requestId: string) => {
    const id = randomUUID();
    await sql(
      `INSERT INTO audits (id, user_id, site_id, start_url, mode, status, max_pages, include, exclude, request_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'quick', 'completed', 10, '[]', '[]', $5, now(), now())`,
      [id, userId, siteId, `${url}/`, requestId],
    );
    return id;
  };

  beforeAll(async () => {
    dirs.push(await migrationsBefore(CLIENT_QUOTAS), await migrationsBefore(USAGE_BY_KEY));
    database = await createTestDatabase({ migrationsDir: dirs[0] });
    client = new Client({ connectionString: database.url });
    await client.connect();

    // the release before client quotas: an agency with two clients, and another agency
    const agency = await user("owner@agency.example");
    const other = await user("owner@other.example");
    ids.acme = await clientOf(agency.workspace, "Acme");
    ids.bravo = await clientOf(agency.workspace, "Bravo");
    ids.otherClient = await clientOf(other.workspace, "Acme");
    ids.acmeSite = await siteOf(agency, "https://acme.example", ids.acme);
    ids.bravoSite = await siteOf(agency, "https://bravo.example", ids.bravo);
    ids.ownSite = await siteOf(agency, "https://agency.example", null);
    // the other agency's site of the same origin as Bravo's, for its own client
    ids.otherSite = await siteOf(other, "https://bravo.example", ids.otherClient);
    ids.acmeKey = await keyOf(agency, ids.acme);
    ids.agencyKey = await keyOf(agency, null);
    ids.otherKey = await keyOf(other, null);

    ids.byAcmeKey = await scanOf("https://acme.example/pricing", { userId: agency.id, keyId: ids.acmeKey });
    // a client's key counts for its client whatever the URL (it scanned before sites were reassigned)
    ids.byAcmeKeyElsewhere = await scanOf("https://bravo.example/", { userId: agency.id, keyId: ids.acmeKey });
    // the origin as the site stores it: scheme and host lower-cased, path and query dropped
    ids.bravoBySession = await scanOf("HTTPS://Bravo.Example/a?b=c#d", { userId: agency.id, keyId: null });
    ids.bravoByKey = await scanOf("https://bravo.example:8443/", { userId: agency.id, keyId: ids.agencyKey });
    ids.otherOrigin = await scanOf("http://bravo.example/", { userId: agency.id, keyId: ids.agencyKey });
    ids.unassignedSite = await scanOf("https://agency.example/", { userId: agency.id, keyId: null });
    ids.noSite = await scanOf("https://nowhere.example/", { userId: agency.id, keyId: ids.agencyKey });
    ids.otherWorkspace = await scanOf("https://bravo.example/x", { userId: other.id, keyId: ids.otherKey });
    ids.anonymous = await scanOf("https://bravo.example/", { userId: null, keyId: null });

    ids.acmeAudit = await auditOf(agency.id, ids.acmeSite, "https://acme.example", "req-acme");
    ids.ownAudit = await auditOf(agency.id, ids.ownSite, "https://agency.example", "req-own");
    ids.otherAudit = await auditOf(other.id, ids.otherSite, "https://bravo.example", "req-other");

    // the release before usage by key: audits of requests a key's or a member's audit-log entry shares
    await migrateDeploy(database.url, dirs[1]);
    /** An entry of the audit's request, written `ago` seconds before the audit. */
    const entry = async (workspace: string, actor: { user?: string; key?: string }, audit: string, ago: number) =>
      sql(
        `INSERT INTO audit_log_entries (workspace_id, id, action, actor_user_id, actor_key_id, actor_key_prefix, target_type, target_id, request_id, created_at)
         SELECT $1, $2, 'site.created', $3, $4, $5, 'site', 'x', a.request_id, a.created_at - make_interval(secs => $7::int)
         FROM audits a WHERE a.id = $6`,
        [workspace, randomUUID(), actor.user ?? null, actor.key ?? null, actor.key ? "sk_live_x" : null, audit, ago],
      );
    ids.keyedAudit = await auditOf(agency.id, ids.ownSite, "https://agency.example", "req-mcp");
    await entry(agency.workspace, { key: ids.agencyKey }, ids.keyedAudit as string, 1);
    ids.memberAudit = await auditOf(agency.id, ids.ownSite, "https://agency.example", "req-member");
    await entry(agency.workspace, { user: agency.id }, ids.memberAudit as string, 1);
    // the same request id in another workspace, by its key: not this audit's key
    ids.foreignAudit = await auditOf(agency.id, ids.ownSite, "https://agency.example", "req-shared");
    await entry(other.workspace, { key: ids.otherKey }, ids.foreignAudit as string, 1);
    // an entry of the request id long before: a request id reused, not this request
    ids.staleAudit = await auditOf(agency.id, ids.ownSite, "https://agency.example", "req-stale");
    await entry(agency.workspace, { key: ids.agencyKey }, ids.staleAudit as string, 3600);

    await migrateDeploy(database.url);
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const clientOfScan = async (id: string | undefined) =>
    (await one<{ client_id: string | null }>(`SELECT client_id FROM scans WHERE id = $1`, [id])).client_id;
  const ofAudit = async (id: string | undefined) =>
    one<{ client_id: string | null; api_key_id: string | null }>(
      `SELECT client_id, api_key_id FROM audits WHERE id = $1`,
      [id],
    );

  it("gives each past scan the client it would have counted for", async () => {
    expect({
      byAcmeKey: await clientOfScan(ids.byAcmeKey),
      byAcmeKeyElsewhere: await clientOfScan(ids.byAcmeKeyElsewhere),
      bravoBySession: await clientOfScan(ids.bravoBySession),
      bravoByKey: await clientOfScan(ids.bravoByKey),
      otherOrigin: await clientOfScan(ids.otherOrigin),
      unassignedSite: await clientOfScan(ids.unassignedSite),
      noSite: await clientOfScan(ids.noSite),
      otherWorkspace: await clientOfScan(ids.otherWorkspace),
      anonymous: await clientOfScan(ids.anonymous),
    }).toEqual({
      byAcmeKey: ids.acme,
      byAcmeKeyElsewhere: ids.acme,
      bravoBySession: ids.bravo,
      // a port the site does not have is another origin
      bravoByKey: null,
      otherOrigin: null,
      unassignedSite: null,
      noSite: null,
      otherWorkspace: ids.otherClient,
      anonymous: null,
    });
  });

  it("gives each past audit its site's client, and no client a quota", async () => {
    expect((await ofAudit(ids.acmeAudit)).client_id).toBe(ids.acme);
    expect((await ofAudit(ids.ownAudit)).client_id).toBeNull();
    expect((await ofAudit(ids.otherAudit)).client_id).toBe(ids.otherClient);
    const quotas = await sql(`SELECT scan_quota, audit_quota, audit_page_quota FROM clients`);
    expect(quotas.rows).toEqual(Array(3).fill({ scan_quota: null, audit_quota: null, audit_page_quota: null }));
  });

  it("gives a past audit the key whose audit-log entry shares its request, and no other", async () => {
    expect((await ofAudit(ids.keyedAudit)).api_key_id).toBe(ids.agencyKey);
    expect((await ofAudit(ids.memberAudit)).api_key_id).toBeNull();
    expect((await ofAudit(ids.foreignAudit)).api_key_id).toBeNull();
    expect((await ofAudit(ids.staleAudit)).api_key_id).toBeNull();
    expect((await ofAudit(ids.acmeAudit)).api_key_id).toBeNull();
    // the audits before are not changed in anything else
    expect(await one(`SELECT count(*)::int AS n FROM audits WHERE crawl_limit IS NOT NULL`)).toEqual({ n: 0 });
  });
});
