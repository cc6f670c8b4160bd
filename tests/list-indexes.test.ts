import { randomUUID } from "node:crypto";
import { Client } from "pg";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";

/**
 * Every list query's filter and order is served by an index: with sequential scans and sorts
 * priced out, the plan of each query shape the list endpoints run reads an index in the
 * order the page needs, so a page costs the same on the first page and with millions of rows.
 */

const WORKSPACE = "workspace_id = $1";
/** name, query, its parameters after the workspace id, and the index that must serve it */
const SHAPES: Array<[string, string, unknown[], string]> = [
  [
    "sites",
    `SELECT * FROM sites WHERE ${WORKSPACE} ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 20`,
    [],
    "sites_workspace_id_created_at_id_idx",
  ],
  [
    "sites with q",
    `SELECT * FROM sites WHERE ${WORKSPACE} AND (domain ILIKE $2 OR name ILIKE $2 OR url ILIKE $2) ORDER BY created_at DESC, id DESC LIMIT 20`,
    ["%brew%"],
    "sites_workspace_id_created_at_id_idx",
  ],
  [
    "keywords",
    `SELECT * FROM keywords WHERE ${WORKSPACE} ORDER BY created_at DESC, id DESC LIMIT 20`,
    [],
    "keywords_workspace_id_created_at_id_idx",
  ],
  [
    "keywords of a site",
    `SELECT * FROM keywords WHERE ${WORKSPACE} AND site_id = $2 ORDER BY created_at DESC, id DESC LIMIT 20`,
    ["SITE"],
    "keywords_workspace_id_site_id_created_at_id_idx",
  ],
  [
    "citations",
    `SELECT * FROM citation_tracks WHERE ${WORKSPACE} AND checked_at >= $2 ORDER BY checked_at DESC, id DESC LIMIT 20`,
    ["SINCE"],
    "citation_tracks_workspace_id_checked_at_id_idx",
  ],
  [
    "citations of an engine",
    `SELECT * FROM citation_tracks WHERE ${WORKSPACE} AND platform = 'claude' AND checked_at >= $2 ORDER BY checked_at DESC, id DESC LIMIT 20`,
    ["SINCE"],
    "citation_tracks_workspace_id_platform_checked_at_id_idx",
  ],
  [
    "citations of a site",
    `SELECT * FROM citation_tracks WHERE ${WORKSPACE} AND site_id = $2 AND checked_at >= $3 ORDER BY checked_at DESC, id DESC LIMIT 20`,
    ["SITE", "SINCE"],
    "citation_tracks_workspace_id_site_id_checked_at_id_idx",
  ],
  [
    "citations of a site and an engine",
    `SELECT * FROM citation_tracks WHERE ${WORKSPACE} AND site_id = $2 AND platform = 'gemini' AND checked_at >= $3 ORDER BY checked_at DESC, id DESC LIMIT 20`,
    ["SITE", "SINCE"],
    "citation_tracks_workspace_id_site_id_platform_checked_at_id_idx",
  ],
  [
    "clients",
    `SELECT * FROM clients WHERE ${WORKSPACE} ORDER BY created_at DESC, id DESC LIMIT 20`,
    [],
    "clients_workspace_id_created_at_id_idx",
  ],
  [
    "sites of a client",
    `SELECT * FROM sites WHERE ${WORKSPACE} AND client_id = $2 ORDER BY created_at DESC, id DESC LIMIT 20`,
    ["CLIENT"],
    "sites_workspace_id_client_id_created_at_id_idx",
  ],
  // as Prisma sends a relation filter (`site: {clientId}`): the client's sites as a subquery
  [
    "keywords of a client",
    `SELECT * FROM keywords WHERE ${WORKSPACE} AND site_id IN (SELECT t1.id FROM sites t1 WHERE t1.client_id = $2 AND t1.id IS NOT NULL) ORDER BY created_at DESC, id DESC LIMIT 20`,
    ["CLIENT"],
    "keywords_workspace_id_created_at_id_idx",
  ],
  [
    "citations of a client",
    `SELECT * FROM citation_tracks WHERE ${WORKSPACE} AND checked_at >= $3 AND site_id IN (SELECT t1.id FROM sites t1 WHERE t1.client_id = $2 AND t1.id IS NOT NULL) ORDER BY checked_at DESC, id DESC LIMIT 20`,
    ["CLIENT", "SINCE"],
    "citation_tracks_workspace_id_checked_at_id_idx",
  ],
];

/** lists whose client filter is a subquery over sites: it filters the rows the list's index gives */
const BY_CLIENT_SITES = new Set(["keywords of a client", "citations of a client"]);

describe("list indexes", () => {
  let database: TestDatabase;
  let client: Client;
  const userIds = Array.from({ length: 20 }, () => randomUUID());
  const siteIds: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    // twenty users with twenty sites each, so the planner has statistics to work with
    for (const userId of userIds) {
      await client.query("INSERT INTO users (id, email) VALUES ($1, $2)", [userId, `${userId}@example.com`]);
      for (let s = 0; s < 20; s++) {
        const siteId = randomUUID();
        siteIds.push(siteId);
        await client.query(
          "INSERT INTO sites (id, user_id, url, domain, name, updated_at) VALUES ($1, $2, $3, $4, $4, now())",
          [siteId, userId, `https://s${s}.example`, `s${s}.example`],
        );
      }
    }
    // two clients a workspace, each with a quarter of its sites
    await client.query(`
      INSERT INTO clients (id, workspace_id, name)
      SELECT gen_random_uuid(), w.id, 'client ' || g FROM workspaces w CROSS JOIN generate_series(1, 2) g`);
    await client.query(`
      UPDATE sites s SET client_id = c.id FROM clients c
      WHERE c.workspace_id = s.workspace_id AND c.name = 'client ' || (1 + get_byte(decode(md5(s.id::text), 'hex'), 0) % 4)`);
    await client.query(`
      INSERT INTO keywords (id, user_id, site_id, keyword, position, volume, difficulty, trend, updated_at)
      SELECT gen_random_uuid(), s.user_id, s.id, 'kw ' || g, g, 10, 10, 'new', now()
      FROM sites s CROSS JOIN generate_series(1, 10) g`);
    await client.query(`
      INSERT INTO citation_tracks (id, user_id, site_id, platform, query_text, cited, checked_at)
      SELECT gen_random_uuid(), s.user_id, s.id, (ARRAY['chatgpt','claude','perplexity','gemini']::"AiEngine"[])[1 + g % 4],
        'q', g % 2 = 0, now() - g * interval '1 day'
      FROM sites s CROSS JOIN generate_series(1, 12) g`);
    await client.query("ANALYZE");
    await client.query("SET enable_seqscan = off");
    await client.query("SET enable_sort = off");
  }, 300_000);

  afterAll(async () => {
    await client?.end();
    await database?.drop();
    await stopContainers();
  });

  it.each(SHAPES)("%s: one index gives the rows in page order", async (name, sql, extra, index) => {
    const since = new Date(Date.now() - 30 * 24 * 3_600_000);
    const { rows: owner } = await client.query<{ id: string }>(
      "SELECT id FROM workspaces WHERE personal_user_id = $1",
      [userIds[3]],
    );
    const params = [
      owner[0]?.id,
      ...extra.map((value) => (value === "SITE" ? siteIds[65] : value === "SINCE" ? since : value)),
    ];
    if (extra.includes("CLIENT")) {
      const { rows: clients } = await client.query<{ id: string }>(
        "SELECT id FROM clients WHERE workspace_id = $1 ORDER BY name LIMIT 1",
        [owner[0]?.id],
      );
      params[extra.indexOf("CLIENT") + 1] = clients[0]?.id;
    }
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(new RegExp(`Index Scan Backward using ${index} on`));
    expect(plan).not.toMatch(BY_CLIENT_SITES.has(name) ? /Seq Scan|Sort/ : /Seq Scan|Sort|Bitmap/);
    // every condition but q's text match is the index's, not a filter over what it reads
    const filters = plan.split("\n").filter((line) => line.includes("Filter:"));
    if (BY_CLIENT_SITES.has(name)) {
      // the client's sites read once by sites (client_id) and kept, while the list's index gives its rows in order
      expect(plan).toMatch(
        /Materialize[\s\S]*(Bitmap Index Scan on|Index Scan using|Index Only Scan using) sites_client_id_idx/,
      );
    } else expect(filters).toEqual(name === "sites with q" ? [expect.stringMatching(/~~\*/)] : []);
  });
});
