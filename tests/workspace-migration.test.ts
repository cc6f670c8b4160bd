import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { cp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_DIR, migrateDeploy } from "@scan/db";
import { generateApiKey } from "@scan/platform";
import { Client } from "pg";
import { tokenFor } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The workspaces migration on a database of the release before it: filled in the old shape by
 * that release's SQL (users of several plans owning keys, sites, scans with and without a site,
 * audits with pages, schedules, keywords, citation tracks, alerts, site credentials, idempotency
 * keys, sessions), then migrated up. Every row of every table is still there and unchanged but
 * for its new workspace column; each owned row is in its owner's personal workspace, which has
 * the owner's plan and the owner as its one owner; and every list answers each user's key (or
 * JWT) what their rows said before. A writer of the old release keeps working after it.
 */

const WORKSPACES = "20261128000000_workspaces";

type Row = Record<string, unknown>;
type Tables = Map<string, Row[]>;

const PLANS = ["free", "pro", "agency"] as const;

type OldUser = { id: string; email: string; plan: string; key: string; keyId: string; sites: string[] };

describe("the workspaces migration", () => {
  let database: TestDatabase;
  let client: Client;
  let stack: Stack;
  let dir: string;
  const users: OldUser[] = [];
  let before: Tables;
  let columnsBefore: Map<string, Set<string>>;

  const tablesOf = async (): Promise<Map<string, Set<string>>> => {
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'",
    );
    const tables = new Map<string, Set<string>>();
    for (const row of rows) tables.set(row.table_name, (tables.get(row.table_name) ?? new Set()).add(row.column_name));
    return tables;
  };

  /** Every row of the tables named, as JSON, in a stable order. */
  const rowsOf = async (names: Iterable<string>): Promise<Tables> => {
    const tables: Tables = new Map();
    for (const name of names) {
      const { rows } = await client.query<{ row: Row }>(`SELECT to_jsonb(t) AS row FROM "${name}" t`);
      tables.set(
        name,
        rows.map((r) => r.row).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      );
    }
    return tables;
  };

  const sql = (text: string, values: unknown[] = []) => client.query(text, values);

  /** The old release's rows for one user, written as its SQL wrote them. */
  const fillUser = async (plan: string, index: number): Promise<OldUser> => {
    const id = randomUUID();
    const email = `owner-${index}@agency.example`;
    await sql(
      `INSERT INTO users (id, email, plan, created_at, role, password_hash) VALUES ($1, $2, $3, now() - interval '30 days', 'member', 'scrypt$x')`,
      [id, email, plan],
    );
    const made = generateApiKey();
    const keyId = randomUUID();
    await sql(
      `INSERT INTO api_keys (id, user_id, name, prefix, hash, default_form, created_at) VALUES ($1, $2, 'ci', $3, $4, 'A', now() - interval '20 days')`,
      [keyId, id, made.prefix, made.hash],
    );
    const revoked = generateApiKey();
    await sql(
      `INSERT INTO api_keys (id, user_id, name, prefix, hash, created_at, revoked_at, last_used_at) VALUES ($1, $2, NULL, $3, $4, now() - interval '25 days', now() - interval '1 day', now() - interval '2 days')`,
      [randomUUID(), id, revoked.prefix, revoked.hash],
    );
    const sites: string[] = [];
    for (let s = 0; s < 2 + index; s++) {
      const site = randomUUID();
      const host = `site${s}.owner${index}.example`;
      await sql(
        `INSERT INTO sites (id, user_id, url, domain, name, is_verified, created_at, updated_at, latest_seo, latest_aeo, latest_geo, latest_mode, latest_scores_at, last_scan_at, credentials_sealed, credentials_updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(days => 10 - $7::int), now(), 70 + $7::int, 60, 50, 'quick', now() - interval '1 day', now() - interval '1 day', $8, $9)`,
        [
          site,
          id,
          `https://${host}`,
          host,
          `Site ${s}`,
          s % 2 === 0,
          s,
          s === 0 ? "v1.sealed-box" : null,
          s === 0 ? new Date() : null,
        ],
      );
      sites.push(site);
      for (let k = 0; k < 3; k++) {
        await sql(
          `INSERT INTO keywords (id, user_id, site_id, keyword, position, previous_position, volume, difficulty, trend, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 100, 30, $7, now() - make_interval(hours => $5::int), now())`,
          [randomUUID(), id, site, `keyword ${k} of ${host}`, k + 1, k === 0 ? null : k + 2, ["new", "up", "down"][k]],
        );
        await sql(
          `INSERT INTO citation_tracks (id, user_id, site_id, platform, query_text, cited, citation_url, checked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(hours => $8::int))`,
          [
            randomUUID(),
            id,
            site,
            ["chatgpt", "claude", "perplexity"][k],
            `who makes ${host}`,
            k !== 1,
            k !== 1 ? `https://${host}/cited` : null,
            k * 3 + s,
          ],
        );
      }
      // a scan of the site's origin, and a completed one with its snapshot and a delivery
      const scan = randomUUID();
      await sql(
        `INSERT INTO scans (id, url, mode, status, user_id, api_key_id, created_at, updated_at, completed_at, seo, aeo, geo, overall, grade, callback_url, callback_state)
         VALUES ($1, $2, 'quick', 'completed', $3, $4, now() - make_interval(hours => $5::int), now(), now(), 80, 70, 60, 70, 'C', 'https://hooks.example/scan', 'delivered')`,
        [scan, `https://${host}/pricing`, id, keyId, s + 1],
      );
      await sql(
        `INSERT INTO scan_snapshots (scan_id, data, size, expires_at) VALUES ($1, '\\x00', 1, now() + interval '1 day')`,
        [scan],
      );
      await sql(
        `INSERT INTO webhook_deliveries (id, scan_id, attempt, status_code, ok, duration_ms) VALUES ($1, $2, 1, 200, true, 12)`,
        [randomUUID(), scan],
      );
      // two completed audits, the later one regressed, with pages, a schedule and an alert
      const audits = [randomUUID(), randomUUID()];
      for (const [a, audit] of audits.entries()) {
        await sql(
          `INSERT INTO audits (id, user_id, site_id, start_url, mode, status, max_pages, include, exclude, discovered, seo, aeo, geo, overall, grade, created_at, completed_at, updated_at)
           VALUES ($1, $2, $3, $4, 'quick', 'completed', 10, '[]', '[]', 2, $5, 60, 50, 60, 'D', now() - make_interval(days => 3 - $6::int), now(), now())`,
          [audit, id, site, `https://${host}/`, 80 - a * 20, a],
        );
        for (let p = 0; p < 2; p++) {
          await sql(
            `INSERT INTO audit_pages (id, audit_id, url, position, depth, status, http_status, seo, aeo, geo, overall, grade, updated_at)
             VALUES ($1, $2, $3, $4, $4, 'scanned', 200, 70, 60, 50, 60, 'D', now())`,
            [randomUUID(), audit, `https://${host}/page-${p}`, p],
          );
        }
      }
      await sql(
        `INSERT INTO audit_schedules (id, user_id, site_id, frequency, mode, max_pages, include, exclude, alert_url, last_audit_id, last_run_at, updated_at, alert_emails)
         VALUES ($1, $2, $3, 'weekly', 'quick', 10, '[]', '[]', 'https://hooks.example/alert', $4, now(), now(), ARRAY[$5])`,
        [randomUUID(), id, site, audits[1], email],
      );
      const alert = randomUUID();
      const scores = (overall: number) => ({ seo: overall, aeo: 60, geo: 50, overall, total: overall });
      const regression = {
        event: "site.regressed",
        alert_id: alert,
        site_id: site,
        site_url: `https://${host}`,
        audit_id: audits[1],
        previous_audit_id: audits[0],
        mode: "quick",
        scores: { before: scores(80), after: scores(60) },
        grade: { before: "B", after: "D" },
        reasons: [{ kind: "score_drop", points: 20, before: 80, after: 60 }],
        detected_at: new Date().toISOString(),
      };
      await sql(
        `INSERT INTO audit_alerts (id, audit_id, previous_audit_id, site_id, user_id, url, body, state, channel, created_at, delivered_at, attempts)
         VALUES ($1, $2, $3, $4, $5, 'https://hooks.example/alert', $6, 'delivered', 'webhook', now() - make_interval(mins => $7::int), now(), 1)`,
        [alert, audits[1], audits[0], site, id, JSON.stringify(regression), s],
      );
    }
    // scans of no site of theirs: by the key, one still queued
    for (let n = 0; n < 2; n++) {
      await sql(
        `INSERT INTO scans (id, url, mode, status, user_id, api_key_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(mins => $7::int), now())`,
        [
          randomUUID(),
          `https://elsewhere-${index}.example/${n}`,
          n === 0 ? "full" : "quick",
          n === 0 ? "queued" : "failed",
          id,
          keyId,
          n,
        ],
      );
    }
    await sql(
      `INSERT INTO sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '7 days')`,
      [randomUUID(), id, `session-${index}`],
    );
    await sql(
      `INSERT INTO idempotency_keys (scope, key_hash, fingerprint, method, path, state, claim_id, locked_until, status_code, expires_at)
       VALUES ($1, $2, 'f', 'POST', '/api/v1/sites', 'completed', $3, now(), 201, now() + interval '1 day')`,
      [`key:${keyId}`, `hash-${index}`, randomUUID()],
    );
    await sql(
      `INSERT INTO password_resets (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')`,
      [randomUUID(), id, `reset-${index}`],
    );
    return { id, email, plan, key: made.key, keyId, sites };
  };

  beforeAll(async () => {
    // the migrations of the release before this one
    dir = mkdtempSync(join(tmpdir(), "migrations-"));
    for (const name of await readdir(MIGRATIONS_DIR, { withFileTypes: true })) {
      if (name.isDirectory() && name.name < WORKSPACES) {
        await cp(join(MIGRATIONS_DIR, name.name), join(dir, name.name), { recursive: true });
      }
    }
    database = await createTestDatabase({ migrationsDir: dir });
    client = new Client({ connectionString: database.url });
    await client.connect();

    for (const [index, plan] of PLANS.entries()) users.push(await fillUser(plan, index));
    // a user with nothing yet, an anonymous scan and an invitation not yet taken
    await sql(`INSERT INTO users (id, email, plan) VALUES ($1, 'empty@agency.example', 'starter')`, [randomUUID()]);
    await sql(
      `INSERT INTO scans (id, url, mode, status, access_token_hash, created_at, updated_at) VALUES ($1, 'https://anon.example/', 'quick', 'completed', 'anon', now(), now())`,
      [randomUUID()],
    );
    await sql(
      `INSERT INTO invitations (id, email, plan, token_hash, expires_at) VALUES ($1, 'new@agency.example', 'pro', 'invite', now() + interval '1 day')`,
      [randomUUID()],
    );

    columnsBefore = await tablesOf();
    before = await rowsOf(columnsBefore.keys());
    expect(await migrateDeploy(database.url)).toEqual(
      (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() && entry.name >= WORKSPACES)
        .map((entry) => entry.name)
        .sort(),
    );
  });

  afterAll(async () => {
    await stack?.close();
    await client?.end();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
    await stopContainers();
  });

  it("keeps every row of every table, changed in nothing but its new workspace column", async () => {
    const after = await rowsOf(columnsBefore.keys());
    let rows = 0;
    for (const [table, columns] of columnsBefore) {
      const kept = (after.get(table) ?? []).map((row) =>
        Object.fromEntries(Object.entries(row).filter(([column]) => columns.has(column))),
      );
      const old = before.get(table) ?? [];
      expect({ table, count: kept.length }).toEqual({ table, count: old.length });
      expect({ table, rows: kept.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) }).toEqual({
        table,
        rows: old,
      });
      rows += old.length;
    }
    // the only new columns on the old tables are the workspace's, and those of the migrations
    // after it: a site's and a key's client, a key's read-only flag, the client a scan or audit
    // counts for, the key an audit was started with and what limit stopped its crawl, the
    // addresses a schedule mails its client report to, the visibility sample a citation track was
    // observed by, a keyword's Search Console clicks and impressions
    const later: Record<string, string[]> = {
      sites: ["client_id"],
      api_keys: ["client_id", "read_only"],
      scans: ["client_id"],
      audits: ["client_id", "api_key_id", "crawl_limit"],
      audit_schedules: ["report_emails"],
      citation_tracks: ["sample_id"],
      keywords: ["clicks", "impressions"],
    };
    const now = await tablesOf();
    for (const [table, columns] of columnsBefore) {
      const owned = [
        "api_keys",
        "scans",
        "sites",
        "keywords",
        "citation_tracks",
        "audits",
        "audit_schedules",
        "audit_alerts",
        "sessions",
      ].includes(table);
      expect({ table, added: [...(now.get(table) ?? [])].filter((c) => !columns.has(c)).sort() }).toEqual({
        table,
        added: [...(owned ? ["workspace_id"] : []), ...(later[table] ?? [])].sort(),
      });
    }
    expect(columnsBefore.size).toBe(16);
    expect(rows).toBe(189);
  });

  it("gives each user one personal workspace with their plan, which they alone own, and puts each of their rows in it", async () => {
    const { rows: workspaces } = await sql(
      `SELECT w.id, w.plan, w.name, u.id AS user_id, u.plan AS user_plan, u.email,
              (SELECT json_agg(json_build_object('user_id', m.user_id, 'role', m.role)) FROM memberships m WHERE m.workspace_id = w.id) AS members
       FROM users u LEFT JOIN workspaces w ON w.personal_user_id = u.id`,
    );
    expect(workspaces).toHaveLength(PLANS.length + 1);
    for (const workspace of workspaces) {
      expect(workspace.id).not.toBeNull();
      expect(workspace.plan).toBe(workspace.user_plan);
      expect(workspace.name).toBe(workspace.email);
      expect(workspace.members).toEqual([{ user_id: workspace.user_id, role: "owner" }]);
    }
    expect((await sql("SELECT count(*)::int AS n FROM workspaces")).rows[0].n).toBe(PLANS.length + 1);
    expect((await sql("SELECT count(*)::int AS n FROM memberships")).rows[0].n).toBe(PLANS.length + 1);

    for (const table of [
      "api_keys",
      "scans",
      "sites",
      "keywords",
      "citation_tracks",
      "audits",
      "audit_schedules",
      "audit_alerts",
    ]) {
      const { rows } = await sql(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE t.workspace_id IS DISTINCT FROM w.id)::int AS elsewhere
         FROM "${table}" t LEFT JOIN workspaces w ON w.personal_user_id = t.user_id WHERE t.user_id IS NOT NULL`,
      );
      expect({ table, elsewhere: rows[0].elsewhere }).toEqual({ table, elsewhere: 0 });
      expect(rows[0].n).toBeGreaterThan(0);
    }
    // the anonymous scan stays no one's; sessions act in the personal workspace (null) until switched
    expect((await sql("SELECT workspace_id FROM scans WHERE user_id IS NULL")).rows).toEqual([{ workspace_id: null }]);
    expect((await sql("SELECT count(*)::int AS n FROM sessions WHERE workspace_id IS NOT NULL")).rows[0].n).toBe(0);
  });

  describe("the lists, against the migrated database", () => {
    let base: string;
    const compared: string[] = [];

    beforeAll(async () => {
      stack = await startStack({
        databaseUrl: database.url,
        redisUrl: await testRedisUrl(),
        allowlist: ["example"],
        worker: false,
        env: { RATE_LIMIT_FREE: "100000", RATE_LIMIT_PRO: "100000", RATE_LIMIT_AGENCY: "100000" },
      });
      base = stack.gateway.url;
    });

    /** Every item of a list, page after page. */
    const listAll = async (path: string, headers: Record<string, string>): Promise<Row[]> => {
      const items: Row[] = [];
      for (let page = 1; ; page++) {
        const response = await api(base, `${path}${path.includes("?") ? "&" : "?"}page=${page}`, { headers });
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        const answer = response.body as { data: Row[]; meta?: { hasMore?: boolean } };
        items.push(...answer.data);
        if (!answer.meta?.hasMore) return items;
      }
    };

    const normal = (value: unknown): unknown =>
      typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value) ? new Date(value).toISOString() : value;

    /**
     * The list answers the user's rows as they were before the migration: the same ids in the
     * list's order, and every field of an item that is a column of its row holds that row's value.
     */
    const expectList = (name: string, items: Row[], rows: Row[], order: (a: Row, b: Row) => number) => {
      const expected = [...rows].sort(order);
      expect({ name, ids: items.map((item) => item.id) }).toEqual({ name, ids: expected.map((row) => row.id) });
      for (const [i, item] of items.entries()) {
        const row = expected[i] as Row;
        const shared = Object.keys(item).filter((field) => field in row && field !== "last_used_at");
        expect(shared.length).toBeGreaterThan(2);
        expect(Object.fromEntries(shared.map((f) => [f, normal(item[f])]))).toEqual(
          Object.fromEntries(shared.map((f) => [f, normal(row[f])])),
        );
      }
      compared.push(name);
    };

    const newestFirst =
      (field: string) =>
      (a: Row, b: Row): number =>
        new Date(b[field] as string).getTime() - new Date(a[field] as string).getTime() ||
        String(b.id).localeCompare(String(a.id));
    const ownedBy = (table: string, user: OldUser, site?: string) =>
      (before.get(table) ?? []).filter(
        (row) => row.user_id === user.id && (site === undefined || row.site_id === site),
      );

    it("answers every list of each user, by key and by JWT, with the rows the user had before", async () => {
      for (const user of users) {
        const key = { "x-api-key": user.key };
        const token = tokenFor(user);
        // the keys first: no other call of theirs has used a key yet
        const keys = await listAll("/api/v1/keys", { authorization: `Bearer ${token}` });
        // the list holds the keys in use; a revoked one stays revoked
        expectList(
          `keys of ${user.plan}`,
          keys,
          ownedBy("api_keys", user).filter((row) => row.revoked_at === null),
          (a, b) => String(b.created_at).localeCompare(String(a.created_at)),
        );
        expect(keys.every((k) => k.plan === user.plan)).toBe(true);
        expectList(
          `sites of ${user.plan}`,
          await listAll("/api/v1/sites", key),
          ownedBy("sites", user),
          newestFirst("created_at"),
        );
        expectList(
          `scans of ${user.plan}`,
          await listAll("/api/v1/scans", key),
          ownedBy("scans", user),
          newestFirst("created_at"),
        );
        expectList(
          `keywords of ${user.plan}`,
          await listAll("/api/v1/keywords", key),
          ownedBy("keywords", user),
          newestFirst("created_at"),
        );
        expectList(
          `citations of ${user.plan}`,
          await listAll("/api/v1/citations", key),
          ownedBy("citation_tracks", user),
          newestFirst("checked_at"),
        );
        for (const site of user.sites) {
          expectList(
            `audits of a site of ${user.plan}`,
            await listAll(`/api/v1/sites/${site}/audits`, key),
            ownedBy("audits", user, site),
            newestFirst("created_at"),
          );
          expectList(
            `alerts of a site of ${user.plan}`,
            await listAll(`/api/v1/sites/${site}/alerts`, key),
            ownedBy("audit_alerts", user, site),
            newestFirst("created_at"),
          );
          const site0 = await api(base, `/api/v1/sites/${site}/schedule`, { headers: key });
          expect(site0.status).toBe(200);
        }
        // and nobody else's: another user's site is 404 to this key
        const stranger = users.find((other) => other !== user) as OldUser;
        expect((await api(base, `/api/v1/sites/${stranger.sites[0]}`, { headers: key })).status).toBe(404);
      }
      expect(compared).toHaveLength(users.length * 5 + users.reduce((n, user) => n + user.sites.length * 2, 0));
    });
  });

  it("keeps the previous release's writers working: a user it inserts gets a personal workspace, and a row it writes with only a user id lands there", async () => {
    const id = randomUUID();
    await sql(`INSERT INTO users (id, email, plan) VALUES ($1, 'late@agency.example', 'pro')`, [id]);
    const { rows: made } = await sql(
      `SELECT w.id, w.plan, m.role FROM workspaces w JOIN memberships m ON m.workspace_id = w.id AND m.user_id = w.personal_user_id WHERE w.personal_user_id = $1`,
      [id],
    );
    expect(made).toEqual([{ id: expect.any(String), plan: "pro", role: "owner" }]);
    const workspace = made[0].id;

    const site = randomUUID();
    await sql(
      `INSERT INTO sites (id, user_id, url, domain, name, updated_at) VALUES ($1, $2, 'https://late.example', 'late.example', 'Late', now())`,
      [site, id],
    );
    await sql(
      `INSERT INTO keywords (id, user_id, site_id, keyword, position, volume, difficulty, trend, updated_at) VALUES ($1, $2, $3, 'late', 1, 1, 1, 'new', now())`,
      [randomUUID(), id, site],
    );
    await sql(
      `INSERT INTO scans (id, url, mode, status, user_id, updated_at) VALUES ($1, 'https://late.example/', 'quick', 'queued', $2, now())`,
      [randomUUID(), id],
    );
    const made2 = generateApiKey();
    await sql(`INSERT INTO api_keys (id, user_id, prefix, hash) VALUES ($1, $2, $3, $4)`, [
      randomUUID(),
      id,
      made2.prefix,
      made2.hash,
    ]);
    for (const table of ["sites", "keywords", "scans", "api_keys"]) {
      const { rows } = await sql(`SELECT DISTINCT workspace_id FROM "${table}" WHERE user_id = $1`, [id]);
      expect({ table, rows }).toEqual({ table, rows: [{ workspace_id: workspace }] });
    }
    // the old release changing a user's plan changes their personal workspace's
    await sql(`UPDATE users SET plan = 'agency' WHERE id = $1`, [id]);
    expect((await sql("SELECT plan FROM workspaces WHERE id = $1", [workspace])).rows).toEqual([{ plan: "agency" }]);
  });
});
