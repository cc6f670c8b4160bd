import { body } from "./support/accounts-api";
import { rpc } from "./support/mcp";
import { gatewayRoutes, type RouteInfo } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Clients inside a workspace, and API keys limited to one client or to reading: a client-scoped
 * key sees its client's sites, scans, audits and lists alone (the rest is 404, over REST and over
 * MCP); a read-only key is refused every write route the gateway mounts.
 */
describe("workspace clients and scoped keys", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let routes: RouteInfo[];
  let token: string;
  let workspaceId: string;
  let userId: string;
  /** ids by name: clients c1 and c2, their sites, scans, audits and keywords */
  const ids: Record<string, string> = {};
  const keys: Record<string, string> = {};

  const call = (
    credential: string,
    method: string,
    path: string,
    payload?: unknown,
    form: "A" | "B" = "A",
    extra: Record<string, string> = {},
  ) =>
    api(base, path, {
      method,
      ...(payload === undefined ? {} : { body: payload }),
      headers: { authorization: `Bearer ${credential}`, "x-response-form": form, ...extra },
    });

  const created = async (path: string, payload: unknown) => {
    const response = await call(token, "POST", path, payload);
    expect({ path, status: response.status }).toEqual({ path, status: 201 });
    return body(response).data as { id: string; key?: string };
  };

  const tool = async (key: string, name: string, args: unknown) => {
    const response = await rpc(base, "tools/call", { name, arguments: args }, { headers: { "x-api-key": key } });
    expect(response.status).toBe(200);
    return (
      response.body as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown } }
    ).result;
  };

  /** Every row the workspace holds, as stored. */
  const snapshot = async () => {
    const where = { workspaceId };
    return JSON.stringify(
      await Promise.all([
        stack.db.client.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.site.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.keyword.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.citationTrack.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.scan.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.audit.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.auditSchedule.findMany({ where, orderBy: { id: "asc" } }),
      ]),
    );
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["example.com", "other.example"],
      worker: false,
      env: {
        SIGN_UP: "open",
        RATE_LIMIT_FREE: "100000",
        RATE_LIMIT_SESSION_READS: "100000",
        SITE_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      },
    });
    base = stack.gateway.url;
    routes = gatewayRoutes(stack.gateway.server).filter(({ path }) => path.startsWith("/api/v1/"));
    const browser = new Browser(base);
    const email = freshEmail("agency");
    expect((await browser.signUp(email, PASSWORD)).status).toBe(201);
    token = await browser.token();
    userId = (await stack.db.user.findUniqueOrThrow({ where: { email } })).id;
    workspaceId = (await stack.db.workspace.findUniqueOrThrow({ where: { personalUserId: userId } })).id;

    for (const [n, origin] of [
      ["1", "https://example.com"],
      ["2", "https://other.example"],
    ] as const) {
      ids[`c${n}`] = (await created("/api/v1/clients", { name: `Client ${n}` })).id;
      ids[`site${n}`] = (await created("/api/v1/sites", { url: origin })).id;
      const assigned = await call(token, "PATCH", `/api/v1/sites/${ids[`site${n}`]}`, { client_id: ids[`c${n}`] });
      expect(body(assigned).data.client_id).toBe(ids[`c${n}`]);
      ids[`keyword${n}`] = (
        await created("/api/v1/keywords", {
          site_id: ids[`site${n}`],
          keyword: `keyword ${n}`,
          position: 1,
          volume: 1,
          difficulty: 1,
        })
      ).id;
      // rows as the worker leaves them: no worker runs here
      ids[`scan${n}`] = (
        await stack.db.scan.create({ data: { url: `${origin}/page`, mode: "quick", userId, workspaceId } })
      ).id;
      ids[`audit${n}`] = (
        await stack.db.audit.create({
          data: {
            userId,
            workspaceId,
            siteId: ids[`site${n}`] as string,
            startUrl: `${origin}/`,
            mode: "quick",
            maxPages: 5,
            include: [],
            exclude: [],
            status: "completed",
          },
        })
      ).id;
    }
    // a site of no client
    ids.site3 = (await created("/api/v1/sites", { url: "https://third.example.com" })).id;
    keys.c1 = (await created("/api/v1/keys", { name: "client 1", client_id: ids.c1 })).key as string;
    keys.readOnly = (await created("/api/v1/keys", { name: "reader", read_only: true })).key as string;
    keys.c1ReadOnly = (await created("/api/v1/keys", { client_id: ids.c1, read_only: true })).key as string;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  describe("clients", () => {
    it("are made, listed, read, changed and deleted in either envelope; their sites stay", async () => {
      const made = await call(token, "POST", "/api/v1/clients", { name: "Acme", notes: "  first  " }, "B");
      expect(made.status).toBe(201);
      const acme = body(made).data;
      expect(body(made).success).toBe(true);
      expect(acme).toMatchObject({ name: "Acme", notes: "first", site_count: 0 });
      expect((await call(token, "POST", "/api/v1/clients", { name: "Acme" })).status).toBe(409);
      const bad = await call(token, "POST", "/api/v1/clients", { name: " " }, "B");
      expect(bad.status).toBe(400);
      expect(body(bad).code).toBe("VALIDATION_ERROR");
      expect(body(await call(token, "POST", "/api/v1/clients", { nom: "x" }, "A")).error.code).toBe("invalid_request");

      expect((await call(token, "PATCH", `/api/v1/sites/${ids.site3}`, { client_id: acme.id })).status).toBe(200);
      const read = await call(token, "GET", `/api/v1/clients/${acme.id}`);
      expect(body(read).data).toMatchObject({ id: acme.id, site_count: 1 });
      const renamed = await call(token, "PATCH", `/api/v1/clients/${acme.id}`, { name: "Acme Ltd", notes: null });
      expect(body(renamed).data).toMatchObject({ name: "Acme Ltd", notes: null });
      expect((await call(token, "PATCH", `/api/v1/clients/${acme.id}`, { name: "Client 1" })).status).toBe(409);
      const listed = await call(token, "GET", "/api/v1/clients");
      expect(body(listed).data.map((c: { name: string }) => c.name)).toEqual(["Acme Ltd", "Client 2", "Client 1"]);
      const bySite = await call(token, "GET", `/api/v1/sites?client_id=${acme.id}`);
      expect(body(bySite).data.map((s: { id: string }) => s.id)).toEqual([ids.site3]);

      const deleted = await call(token, "DELETE", `/api/v1/clients/${acme.id}`, undefined, "B");
      expect(deleted.status).toBe(200);
      expect(body(deleted).data).toEqual({ id: acme.id, deleted: true });
      expect(await stack.db.site.findUniqueOrThrow({ where: { id: ids.site3 } })).toMatchObject({ clientId: null });
      expect((await call(token, "GET", `/api/v1/clients/${acme.id}`)).status).toBe(404);
    });

    it("a site is assigned only to a client of its workspace", async () => {
      const otherBrowser = new Browser(base);
      await otherBrowser.signUp(freshEmail("other-agency"), PASSWORD);
      const otherToken = await otherBrowser.token();
      const foreign = await call(otherToken, "POST", "/api/v1/clients", { name: "Theirs" });
      const refused = await call(token, "PATCH", `/api/v1/sites/${ids.site3}`, { client_id: body(foreign).data.id });
      expect(refused.status).toBe(404);
      expect(await stack.db.site.findUniqueOrThrow({ where: { id: ids.site3 } })).toMatchObject({ clientId: null });
      expect((await call(token, "POST", "/api/v1/keys", { client_id: body(foreign).data.id })).status).toBe(404);
    });

    it("a client with a live key is not deleted; once its keys are revoked it is", async () => {
      const client = await created("/api/v1/clients", { name: "Short-lived" });
      const key = await created("/api/v1/keys", { client_id: client.id });
      const refused = await call(token, "DELETE", `/api/v1/clients/${client.id}`);
      expect(refused.status).toBe(409);
      expect(body(refused).error.code).toBe("conflict");
      expect((await call(token, "DELETE", `/api/v1/keys/${key.id}`)).status).toBe(200);
      expect((await call(token, "DELETE", `/api/v1/clients/${client.id}`)).status).toBe(200);
    });
  });

  describe("a key limited to a client", () => {
    it("lists its client's sites, scans, keywords and the client alone", async () => {
      const key = keys.c1 as string;
      const sites = await call(key, "GET", "/api/v1/sites");
      expect(body(sites).data.map((s: { id: string }) => s.id)).toEqual([ids.site1]);
      const scans = await call(key, "GET", "/api/v1/scans");
      expect(body(scans).data.map((s: { id: string }) => s.id)).toEqual([ids.scan1]);
      const keywords = await call(key, "GET", "/api/v1/keywords");
      expect(body(keywords).data.map((k: { id: string }) => k.id)).toEqual([ids.keyword1]);
      const clients = await call(key, "GET", "/api/v1/clients");
      expect(body(clients).data.map((c: { id: string }) => c.id)).toEqual([ids.c1]);
      expect((await call(key, "GET", `/api/v1/sites?client_id=${ids.c2}`)).status).toBe(404);
      expect((await call(key, "GET", `/api/v1/scans?site_id=${ids.site2}`)).status).toBe(404);
      expect((await call(key, "GET", `/api/v1/keywords?site_id=${ids.site2}`)).status).toBe(404);
      // the workspace's own view holds both
      expect(body(await call(token, "GET", "/api/v1/scans")).data).toHaveLength(2);
    });

    it("finds another client's site, scan, audit, keyword and the client itself as missing (404), in both forms", async () => {
      const key = keys.c1 as string;
      const before = await snapshot();
      const outside = [
        ["GET", `/api/v1/sites/${ids.site2}`],
        ["GET", `/api/v1/sites/${ids.site3}`],
        ["PATCH", `/api/v1/sites/${ids.site2}`, { name: "taken" }],
        ["DELETE", `/api/v1/sites/${ids.site2}`],
        ["GET", `/api/v1/sites/${ids.site2}/audits`],
        ["POST", `/api/v1/sites/${ids.site2}/audits`, {}],
        ["POST", `/api/v1/sites/${ids.site2}/schedule`, { frequency: "weekly" }],
        ["GET", `/api/v1/sites/${ids.site2}/history`],
        ["GET", `/api/v1/scan/${ids.scan2}`],
        ["GET", `/api/v1/audits/${ids.audit2}`],
        ["GET", `/api/v1/audits/${ids.audit2}/report`],
        ["DELETE", `/api/v1/audits/${ids.audit2}`],
        ["PATCH", `/api/v1/keywords/${ids.keyword2}`, { keyword: "taken" }],
        ["POST", "/api/v1/keywords", { site_id: ids.site2, keyword: "x", position: 1, volume: 1, difficulty: 1 }],
        ["GET", `/api/v1/clients/${ids.c2}`],
        ["DELETE", `/api/v1/clients/${ids.c2}`],
      ] as const;
      for (const [method, path, payload] of outside) {
        for (const form of ["A", "B"] as const) {
          const response = await call(key, method, path, payload, form);
          const where = `${method} ${path} (${form})`;
          expect({ where, status: response.status }).toEqual({ where, status: 404 });
          const code = form === "A" ? body(response).error.code : body(response).code;
          expect({ where, code }).toEqual({ where, code: form === "A" ? "not_found" : "NOT_FOUND" });
        }
      }
      // its own client's are answered
      expect((await call(key, "GET", `/api/v1/sites/${ids.site1}`)).status).toBe(200);
      expect((await call(key, "GET", `/api/v1/scan/${ids.scan1}`)).status).toBe(200);
      expect((await call(key, "GET", `/api/v1/audits/${ids.audit1}`)).status).toBe(200);
      expect(await snapshot()).toBe(before);
    });

    it("scans only URLs of its client's sites' origins, and changes nothing of the workspace's shape", async () => {
      const key = keys.c1 as string;
      const before = await snapshot();
      const other = await call(key, "POST", "/api/v1/scan", { url: "https://other.example/x" }, "B");
      expect(other.status).toBe(403);
      expect(body(other).code).toBe("FORBIDDEN");
      const stranger = await call(key, "POST", "/api/v1/scan", { url: "https://unknown.example.org/" });
      expect(stranger.status).toBe(403);
      // the same answer whether the origin is another client's site or no one's
      expect(body(stranger).error.message).toBe(
        body(other).error.replace("https://other.example", "https://unknown.example.org"),
      );
      const batch = await call(key, "POST", "/api/v1/scans/batch", {
        urls: ["https://example.com/a", "https://other.example/b"],
      });
      expect(batch.status).toBe(403);
      expect((await call(key, "POST", "/api/v1/sites", { url: "https://example.com" })).status).toBe(403);
      expect((await call(key, "PATCH", `/api/v1/sites/${ids.site1}`, { client_id: null })).status).toBe(403);
      expect((await call(key, "POST", "/api/v1/clients", { name: "Mine" })).status).toBe(403);
      expect((await call(key, "PATCH", `/api/v1/clients/${ids.c1}`, { name: "Mine" })).status).toBe(403);
      expect(await snapshot()).toBe(before);

      const own = await call(key, "POST", "/api/v1/scan", { url: "https://example.com/new" }, "A", {
        prefer: "respond-async",
      });
      expect(own.status).toBe(202);
      const stored = await stack.db.scan.findUniqueOrThrow({ where: { id: body(own).data.id } });
      expect(stored).toMatchObject({ workspaceId, url: "https://example.com/new" });
    });

    it("over MCP, reads its client's audit and finds another's missing; scans only its sites' URLs", async () => {
      const key = keys.c1 as string;
      const own = await tool(key, "aeo_audit_site", { audit_id: ids.audit1 });
      expect(own.isError).toBeFalsy();
      expect(own.structuredContent).toMatchObject({ id: ids.audit1 });
      const theirs = await tool(key, "aeo_audit_site", { audit_id: ids.audit2 });
      expect(theirs.isError).toBe(true);
      expect(theirs.content[0]?.text).toMatch(/^not_found: No audit with id/);
      const before = await snapshot();
      for (const [name, args] of [
        ["aeo_score", { url: "https://other.example/" }],
        ["aeo_scan", { url: "https://other.example/" }],
        ["aeo_fix", { url: "https://other.example/" }],
        ["aeo_generate", { url: "https://other.example/", content_type: "faq" }],
        ["aeo_audit_site", { url: "https://other.example/" }],
      ] as const) {
        const result = await tool(key, name, args);
        expect({ name, error: result.isError }).toEqual({ name, error: true });
        expect(result.content[0]?.text).toMatch(/^forbidden: This API key is limited to one client/);
      }
      expect(await snapshot()).toBe(before);
    });
  });

  describe("the AI-visibility tools over MCP", () => {
    it("hold a client-scoped key to its client's sites: its own site answers, another client's is missing", async () => {
      const key = keys.c1 as string;
      const own = await tool(key, "aeo_visibility_profile", { site_id: ids.site1 });
      expect(own.isError).toBeFalsy();
      expect(own.structuredContent).toMatchObject({ site_id: ids.site1 });
      const before = await snapshot();
      const prompts = () => stack.db.visibilityPrompt.count({ where: { workspaceId } });
      const promptsBefore = await prompts();
      for (const [name, args] of [
        ["aeo_visibility_profile", { site_id: ids.site2 }],
        ["aeo_list_prompts", { site_id: ids.site2 }],
        ["aeo_add_prompt", { site_id: ids.site2, text: "which agency is best?" }],
        ["aeo_list_competitors", { site_id: ids.site3 }],
        ["aeo_add_competitor", { site_id: ids.site3, name: "Rival" }],
      ] as const) {
        const result = await tool(key, name, args);
        expect({ name, error: result.isError }).toEqual({ name, error: true });
        expect({ name, text: result.content[0]?.text }).toEqual({ name, text: expect.stringMatching(/^not_found: /) });
      }
      expect(await prompts()).toBe(promptsBefore);
      expect(await snapshot()).toBe(before);
      // the client's own site takes a prompt
      const added = await tool(key, "aeo_add_prompt", { site_id: ids.site1, text: "who audits sites for AI answers?" });
      expect(added.isError).toBeFalsy();
      expect(await prompts()).toBe(promptsBefore + 1);
    });

    it("refuse a read-only key every change and answer its reads", async () => {
      const key = keys.readOnly as string;
      expect((await tool(key, "aeo_list_prompts", { site_id: ids.site2 })).isError).toBeFalsy();
      const prompts = () => stack.db.visibilityPrompt.count({ where: { workspaceId } });
      const promptsBefore = await prompts();
      for (const [name, args] of [
        ["aeo_add_prompt", { site_id: ids.site2, text: "a question" }],
        ["aeo_add_competitor", { site_id: ids.site2, name: "Rival" }],
      ] as const) {
        const result = await tool(key, name, args);
        expect({ name, error: result.isError }).toEqual({ name, error: true });
        expect(result.content[0]?.text).toMatch(/^forbidden: This API key is read-only/);
      }
      expect(await prompts()).toBe(promptsBefore);
    });
  });

  describe("a read-only key", () => {
    /** The routes an API key can call that write: every mounted /api/v1 route but the JWT-only ones, by method. */
    const writeRoutes = () =>
      routes.filter(
        (route) =>
          !["GET", "HEAD", "OPTIONS"].includes(route.method) &&
          !/^\/api\/v1\/(keys|workspaces|operations)(\/|$)/.test(route.path),
      );

    const fill = (path: string) =>
      path
        .replace(/^\/api\/v1\/sites\/:id/, `/api/v1/sites/${ids.site1}`)
        .replace(/^\/api\/v1\/audits\/:id/, `/api/v1/audits/${ids.audit1}`)
        .replace(/^\/api\/v1\/keywords\/:id/, `/api/v1/keywords/${ids.keyword1}`)
        .replace(/^\/api\/v1\/citations\/:id/, `/api/v1/citations/${ids.c1}`)
        .replace(/^\/api\/v1\/clients\/:id/, `/api/v1/clients/${ids.c1}`);

    it.each(["readOnly", "c1ReadOnly"])(
      "(%s) is refused every write route with 403 READ_ONLY_KEY, and changes nothing",
      async (which) => {
        const key = keys[which] as string;
        const writes = writeRoutes();
        // scans, batches, sites, clients, keywords, citations, audits, schedules, credentials, fix, generate, evaluate
        expect(writes.length).toBeGreaterThanOrEqual(20);
        const before = await snapshot();
        for (const route of writes) {
          const path = fill(route.path);
          for (const form of ["A", "B"] as const) {
            const response = await call(key, route.method, path, {}, form);
            const where = `${route.method} ${path} (${form})`;
            expect({ where, status: response.status }).toEqual({ where, status: 403 });
            const code = form === "A" ? body(response).error.code : body(response).code;
            expect({ where, code }).toEqual({
              where,
              code: form === "A" ? "forbidden" : "READ_ONLY_KEY",
            });
          }
        }
        expect(await snapshot()).toBe(before);
        // and reads are answered
        expect((await call(key, "GET", `/api/v1/sites/${ids.site1}`)).status).toBe(200);
      },
      120_000,
    );

    it("over MCP, reads an audit and is refused every tool call that scans or starts one", async () => {
      const key = keys.readOnly as string;
      expect((await tool(key, "aeo_audit_site", { audit_id: ids.audit2 })).isError).toBeFalsy();
      const before = await snapshot();
      for (const [name, args] of [
        ["aeo_score", { url: "https://example.com/" }],
        ["aeo_scan", { url: "https://example.com/" }],
        ["aeo_fix", { url: "https://example.com/" }],
        ["aeo_generate", { url: "https://example.com/", content_type: "faq" }],
        ["aeo_audit_site", { url: "https://example.com/" }],
      ] as const) {
        const result = await tool(key, name, args);
        expect({ name, error: result.isError }).toEqual({ name, error: true });
        expect(result.content[0]?.text).toMatch(/^forbidden: This API key is read-only/);
      }
      expect(await snapshot()).toBe(before);
    });

    it("is shown as such in the key list", async () => {
      const listed = body(await call(token, "GET", "/api/v1/keys")).data as {
        name: string | null;
        client_id: string | null;
        read_only: boolean;
      }[];
      expect(listed.find((key) => key.name === "reader")).toMatchObject({ client_id: null, read_only: true });
      expect(listed.find((key) => key.name === "client 1")).toMatchObject({ client_id: ids.c1, read_only: false });
    });
  });
});
