import { audits, schedules } from "@scan/records";
import { body } from "./support/accounts-api";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Per-client monthly quotas and usage: a scan counts for its key's client or its URL's site's
 * client, an audit for its site's client; a client over its quota is refused as the plan's quota
 * refuses (403 forbidden / PLAN_LIMIT) while other clients and the workspace go on; concurrent
 * scans do not overshoot; GET /api/v1/usage shows it all.
 */
describe("client quotas and usage", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let token: string;
  let workspaceId: string;
  const ids: Record<string, string> = {};
  const keys: Record<string, string> = {};
  const keyIds: Record<string, string> = {};

  const call = (credential: string, method: string, path: string, payload?: unknown, form: "A" | "B" = "A") =>
    api(base, path, {
      method,
      ...(payload === undefined ? {} : { body: payload }),
      headers: { authorization: `Bearer ${credential}`, "x-response-form": form, prefer: "respond-async" },
    });

  const created = async (path: string, payload: unknown) => {
    const response = await call(token, "POST", path, payload);
    expect({ path, status: response.status }).toEqual({ path, status: 201 });
    return body(response).data as { id: string; key?: string };
  };

  const scan = (credential: string, url: string, form: "A" | "B" = "A") =>
    call(credential, "POST", "/api/v1/scan", { url }, form);

  const clientScans = (clientId: string) => stack.db.scan.count({ where: { clientId } });

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["example.com", "other.example", "third.example.com", "busy.example"],
      worker: false,
      env: {
        SIGN_UP: "open",
        RATE_LIMIT_FREE: "100000",
        RATE_LIMIT_SESSION_READS: "100000",
        SCAN_QUOTA_FREE: "1000",
        ADMISSION_CONTROL: "off",
      },
    });
    base = stack.gateway.url;
    const browser = new Browser(base);
    const email = freshEmail("quotas");
    expect((await browser.signUp(email, PASSWORD)).status).toBe(201);
    token = await browser.token();
    const userId = (await stack.db.user.findUniqueOrThrow({ where: { email } })).id;
    workspaceId = (await stack.db.workspace.findUniqueOrThrow({ where: { personalUserId: userId } })).id;
    ids.a = (await created("/api/v1/clients", { name: "Acme", scan_quota: 3, audit_quota: 1 })).id;
    ids.b = (await created("/api/v1/clients", { name: "Bravo" })).id;
    ids.busy = (await created("/api/v1/clients", { name: "Busy", scan_quota: 5 })).id;
    for (const [name, origin, client] of [
      ["siteA", "https://example.com", ids.a],
      ["siteB", "https://other.example", ids.b],
      ["siteBusy", "https://busy.example", ids.busy],
      ["siteNone", "https://third.example.com", null],
    ] as const) {
      ids[name] = (await created("/api/v1/sites", { url: origin })).id;
      if (client)
        expect((await call(token, "PATCH", `/api/v1/sites/${ids[name]}`, { client_id: client })).status).toBe(200);
    }
    for (const [name, payload] of [
      ["a", { name: "acme", client_id: ids.a }],
      ["workspace", { name: "agency" }],
      ["bravo", { name: "bravo", client_id: ids.b }],
    ] as const) {
      const key = await created("/api/v1/keys", payload);
      keys[name] = key.key as string;
      keyIds[name] = key.id;
    }
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  it("quotas are set on the client, shown with it, and checked", async () => {
    expect(body(await call(token, "GET", `/api/v1/clients/${ids.a}`)).data).toMatchObject({
      scan_quota: 3,
      audit_quota: 1,
    });
    for (const bad of [{ scan_quota: -1 }, { scan_quota: 1.5 }, { audit_quota: "10" }]) {
      const refused = await call(token, "PATCH", `/api/v1/clients/${ids.b}`, bad, "B");
      expect({ bad, status: refused.status, code: body(refused).code }).toEqual({
        bad,
        status: 400,
        code: "VALIDATION_ERROR",
      });
    }
    const cleared = await call(token, "PATCH", `/api/v1/clients/${ids.b}`, { scan_quota: 7 });
    expect(body(cleared).data).toMatchObject({ scan_quota: 7, audit_quota: null });
    const none = await call(token, "PATCH", `/api/v1/clients/${ids.b}`, { scan_quota: null });
    expect(body(none).data).toMatchObject({ scan_quota: null, audit_quota: null });
  });

  it("a client over its scan quota is refused in both envelopes; other clients and the workspace are not", async () => {
    // a session's scan of the client's site's URL and a client key's scan both count for it
    expect((await scan(token, "https://example.com/one")).status).toBe(202);
    expect((await scan(keys.a as string, "https://example.com/two")).status).toBe(202);
    expect((await scan(keys.workspace as string, "https://example.com/three")).status).toBe(202);
    expect(await clientScans(ids.a as string)).toBe(3);

    const formA = await scan(token, "https://example.com/four");
    expect(formA.status).toBe(403);
    expect(body(formA).error).toMatchObject({
      code: "forbidden",
      message: "The client Acme's quota of 3 scans this month is used up",
    });
    expect(body(formA).error.hint).toMatch(/resets at \d{4}-\d\d-01T00:00:00\.000Z/);
    const formB = await scan(keys.a as string, "https://example.com/four", "B");
    expect(formB.status).toBe(403);
    expect(body(formB)).toEqual({
      error: "The client Acme's quota of 3 scans this month is used up",
      code: "PLAN_LIMIT",
    });
    const batch = await call(token, "POST", "/api/v1/scans/batch", {
      urls: ["https://other.example/x", "https://example.com/x"],
    });
    expect(batch.status).toBe(403);
    expect(body(batch).error.message).toBe("The client Acme's quota of 3 scans this month is used up");
    expect(await clientScans(ids.a as string)).toBe(3);
    // nothing of the refused batch was stored, not even its other client's URL
    expect(await clientScans(ids.b as string)).toBe(0);

    expect((await scan(token, "https://other.example/x")).status).toBe(202);
    expect((await scan(keys.workspace as string, "https://third.example.com/")).status).toBe(202);
    expect(await clientScans(ids.b as string)).toBe(1);
    const unassigned = await stack.db.scan.findFirstOrThrow({ where: { url: "https://third.example.com/" } });
    expect(unassigned.clientId).toBeNull();

    // raising the quota lets the next one through
    expect((await call(token, "PATCH", `/api/v1/clients/${ids.a}`, { scan_quota: 4 })).status).toBe(200);
    expect((await scan(token, "https://example.com/four")).status).toBe(202);
    const many = await call(token, "POST", "/api/v1/scans/batch", {
      urls: ["https://example.com/five", "https://example.com/six"],
    });
    expect(body(many).error.message).toBe(
      "The client Acme's quota of 4 scans this month has 0 left, fewer than the 2 asked for",
    );
  });

  it("concurrent scans of one client never pass its quota", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        scan(i % 2 === 0 ? token : (keys.workspace as string), `https://busy.example/${i}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(202), ...Array(7).fill(403)]);
    expect(await clientScans(ids.busy as string)).toBe(5);
  });

  it("a client over its audit quota is refused, by the API and by a schedule's firing; other clients are not", async () => {
    const first = await call(token, "POST", `/api/v1/sites/${ids.siteA}/audits`, {});
    expect(first.status).toBe(202);
    const audit = await stack.db.audit.findUniqueOrThrow({ where: { id: body(first).data.id } });
    expect(audit.clientId).toBe(ids.a);
    expect((await call(token, "DELETE", `/api/v1/audits/${audit.id}`)).status).toBe(200);

    for (const form of ["A", "B"] as const) {
      const refused = await call(token, "POST", `/api/v1/sites/${ids.siteA}/audits`, {}, form);
      expect(refused.status).toBe(403);
      const message = "The client Acme's quota of 1 audits this month is used up";
      expect(form === "A" ? body(refused).error : body(refused)).toMatchObject(
        form === "A" ? { code: "forbidden", message } : { error: message, code: "PLAN_LIMIT" },
      );
    }
    const fired = await schedules.startScheduledAudit(
      stack.db,
      { siteId: ids.siteA as string, workspaceId, userId: audit.userId, mode: "quick", maxPages: 5 },
      { startUrl: "https://example.com/", include: [], exclude: [], requestId: "schedule-quota-test" },
    );
    expect(fired).toEqual({ started: false, reason: "quota" });
    expect(await stack.db.audit.count({ where: { clientId: ids.a } })).toBe(1);

    // an audit started with a key is the key's
    const keyed = await call(keys.workspace as string, "POST", `/api/v1/sites/${ids.siteB}/audits`, {});
    expect(keyed.status).toBe(202);
    expect((await stack.db.audit.findUniqueOrThrow({ where: { id: body(keyed).data.id } })).apiKeyId).toBe(
      keyIds.workspace,
    );
    expect(audit.apiKeyId).toBeNull();
    expect((await call(token, "POST", `/api/v1/sites/${ids.siteNone}/audits`, {})).status).toBe(202);
  });

  it("GET /api/v1/usage shows the workspace's and each client's month; a client's key sees its own", async () => {
    const usage = await call(token, "GET", "/api/v1/usage");
    expect(usage.status).toBe(200);
    expect(usage.headers.get("cache-control")).toBe("no-store");
    const data = body(usage).data;
    const total = await stack.db.scan.count({ where: { workspaceId } });
    expect(data.workspace).toEqual({
      plan: "free",
      scans: { used: total, limit: 1000 },
      audits: { used: 3, limit: null },
      audit_pages: { used: 0, limit: null },
    });
    const none = { used: 0, limit: null };
    expect(data.clients).toEqual([
      {
        client_id: ids.a,
        name: "Acme",
        scans: { used: 4, limit: 4 },
        audits: { used: 1, limit: 1 },
        audit_pages: none,
      },
      {
        client_id: ids.b,
        name: "Bravo",
        scans: { used: 1, limit: null },
        audits: { used: 1, limit: null },
        audit_pages: none,
      },
      {
        client_id: ids.busy,
        name: "Busy",
        scans: { used: 5, limit: 5 },
        audits: { used: 0, limit: null },
        audit_pages: none,
      },
    ]);
    expect(data.unassigned).toEqual({ scans: 1, audits: 1, audit_pages: 0 });
    expect(data.month.resets_at > data.month.start).toBe(true);

    const own = body(await call(keys.a as string, "GET", "/api/v1/usage", undefined, "B"));
    expect(own.success).toBe(true);
    expect(own.data.workspace).toBeNull();
    expect(own.data.unassigned).toBeNull();
    expect(own.data.clients.map((client: { client_id: string }) => client.client_id)).toEqual([ids.a]);
    expect((await call(keys.a as string, "GET", `/api/v1/usage?client_id=${ids.b}`)).status).toBe(404);
    const one = body(await call(token, "GET", `/api/v1/usage?client_id=${ids.b}`)).data;
    expect(one.clients).toHaveLength(1);
    expect((await call(token, "GET", "/api/v1/usage?client_id=nope", undefined, "B")).status).toBe(400);
  });

  it("GET /api/v1/usage counts each key's scans and audits; a client's key sees its client's keys alone", async () => {
    // a key deleted after it scanned is still listed this month; one deleted unused is not
    const spent = await created("/api/v1/keys", { name: "spent" });
    const unused = await created("/api/v1/keys", { name: "unused" });
    expect((await scan(spent.key as string, "https://other.example/spent")).status).toBe(202);
    for (const key of [spent, unused]) expect((await call(token, "DELETE", `/api/v1/keys/${key.id}`)).status).toBe(200);

    const byKey = async (id: string) => ({
      scans: await stack.db.scan.count({ where: { apiKeyId: id } }),
      audits: await stack.db.audit.count({ where: { apiKeyId: id } }),
    });
    const data = body(await call(token, "GET", "/api/v1/usage")).data;
    expect(data.keys.map((key: { name: string }) => key.name)).toEqual(["spent", "bravo", "agency", "acme"]);
    const workspaceKey = await byKey(keyIds.workspace as string);
    // the workspace key's: three.example, third.example.com and some of the concurrent busy.example scans
    expect(workspaceKey.scans).toBeGreaterThanOrEqual(2);
    expect(data.keys).toEqual([
      expect.objectContaining({ key_id: spent.id, revoked: true, scans: 1, audits: 0, client_id: null }),
      expect.objectContaining({ key_id: keyIds.bravo, revoked: false, scans: 0, audits: 0, client_id: ids.b }),
      {
        key_id: keyIds.workspace,
        name: "agency",
        prefix: expect.any(String),
        client_id: null,
        revoked: false,
        scans: workspaceKey.scans,
        audits: 1,
      },
      // the refused scan of the client's key is not counted
      expect.objectContaining({ key_id: keyIds.a, revoked: false, scans: 1, audits: 0, client_id: ids.a }),
    ]);
    // a session's scans and audits count for no key
    const keyed = data.keys.reduce((sum: number, key: { scans: number }) => sum + key.scans, 0);
    expect(keyed).toBeLessThan(data.workspace.scans.used);

    for (const form of ["A", "B"] as const) {
      const own = body(await call(keys.a as string, "GET", "/api/v1/usage", undefined, form));
      expect(own.data.keys).toEqual([expect.objectContaining({ key_id: keyIds.a, scans: 1, audits: 0 })]);
    }
    const bravo = body(await call(token, "GET", `/api/v1/usage?client_id=${ids.b}`)).data;
    expect(bravo.keys).toEqual([expect.objectContaining({ key_id: keyIds.bravo, name: "bravo" })]);
    const fromBravo = body(await call(keys.bravo as string, "GET", "/api/v1/usage")).data;
    expect(fromBravo.keys.map((key: { key_id: string }) => key.key_id)).toEqual([keyIds.bravo]);
  });

  it("a client's audit pages a month: a crawl admits pages up to what is left and says why it stopped", async () => {
    for (const form of ["A", "B"] as const) {
      const bad = await call(token, "PATCH", `/api/v1/clients/${ids.b}`, { audit_page_quota: -1 }, form);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(body(bad))).toContain("audit_page_quota");
    }
    const set = await call(token, "PATCH", `/api/v1/clients/${ids.b}`, { audit_page_quota: 5 });
    expect(body(set).data).toMatchObject({ audit_page_quota: 5, audit_quota: null });
    const log = await stack.db.auditLogEntry.findFirstOrThrow({
      where: { workspaceId, action: "client.changed", targetId: ids.b },
      orderBy: { createdAt: "desc" },
    });
    expect(log.changes).toEqual({ audit_page_quota: { from: null, to: 5 } });

    // Bravo's audit under way (started with the workspace key): its crawl admits 3, then 2 of 4
    const audit = await stack.db.audit.findFirstOrThrow({ where: { siteId: ids.siteB, status: "discovering" } });
    const found = (paths: string[]) =>
      paths.map((path) => ({ url: `https://other.example${path}`, depth: 1, inSitemap: false }));
    expect(await audits.admitPages(stack.db, audit.id, found(["/", "/a", "/b"]))).toHaveLength(3);
    expect((await stack.db.audit.findUniqueOrThrow({ where: { id: audit.id } })).crawlLimit).toBeNull();
    const second = await audits.admitPages(stack.db, audit.id, found(["/c", "/d", "/e", "/f"]));
    expect(second.map((page) => page.url)).toEqual(["https://other.example/c", "https://other.example/d"]);
    expect(await stack.db.auditPage.count({ where: { auditId: audit.id } })).toBe(5);
    for (const form of ["A", "B"] as const) {
      const view = body(await call(token, "GET", `/api/v1/audits/${audit.id}`, undefined, form)).data;
      expect(view.crawl_limit).toEqual({
        reason: "client_page_quota",
        message: expect.stringContaining("quota of audit pages this month was reached"),
      });
    }
    // nothing more is admitted, and the stored reason is not written again
    const before = await stack.db.audit.findUniqueOrThrow({ where: { id: audit.id } });
    expect(await audits.admitPages(stack.db, audit.id, found(["/g"]))).toEqual([]);
    expect((await stack.db.audit.findUniqueOrThrow({ where: { id: audit.id } })).updatedAt).toEqual(before.updatedAt);

    const usage = body(await call(token, "GET", `/api/v1/usage?client_id=${ids.b}`)).data;
    expect(usage.clients[0].audit_pages).toEqual({ used: 5, limit: 5 });

    // a new audit of the client's site is refused while its pages are used up, by the API and a schedule
    expect((await call(token, "DELETE", `/api/v1/audits/${audit.id}`)).status).toBe(200);
    const message = "The client Bravo's quota of 5 audit pages this month is used up";
    const formA = await call(token, "POST", `/api/v1/sites/${ids.siteB}/audits`, {});
    expect(formA.status).toBe(403);
    expect(body(formA).error).toMatchObject({ code: "forbidden", message });
    expect(body(formA).error.hint).toContain("audit_page_quota");
    const formB = await call(keys.bravo as string, "POST", `/api/v1/sites/${ids.siteB}/audits`, {}, "B");
    expect(body(formB)).toEqual({ error: message, code: "PLAN_LIMIT" });
    const fired = await schedules.startScheduledAudit(
      stack.db,
      { siteId: ids.siteB as string, workspaceId, userId: audit.userId, mode: "quick", maxPages: 5 },
      { startUrl: "https://other.example/", include: [], exclude: [], requestId: "schedule-pages-test" },
    );
    expect(fired).toEqual({ started: false, reason: "quota" });

    // raised, an audit starts again and admits what the quota now leaves
    expect((await call(token, "PATCH", `/api/v1/clients/${ids.b}`, { audit_page_quota: 6 })).status).toBe(200);
    const next = await call(token, "POST", `/api/v1/sites/${ids.siteB}/audits`, {});
    expect(next.status).toBe(202);
    expect(body(next).data.crawl_limit).toBeNull();
    expect(await audits.admitPages(stack.db, body(next).data.id, found(["/", "/a"]))).toHaveLength(1);
    expect((await stack.db.audit.findUniqueOrThrow({ where: { id: body(next).data.id } })).crawlLimit).toBe(
      "client_page_quota",
    );
  });

  it("two audits of one client crawling at once admit no more pages than its quota leaves", async () => {
    const busy = await stack.db.site.findUniqueOrThrow({ where: { id: ids.siteBusy } });
    expect((await call(token, "PATCH", `/api/v1/clients/${ids.busy}`, { audit_page_quota: 7 })).status).toBe(200);
    const started = await Promise.all(
      ["busy-1", "busy-2", "busy-3"].map((requestId) =>
        audits.insertDiscovering(stack.db, {
          workspaceId,
          userId: busy.userId,
          siteId: busy.id,
          startUrl: `${busy.url}/`,
          mode: "quick",
          maxPages: 50,
          include: [],
          exclude: [],
          requestId,
        }),
      ),
    );
    const found = (n: number) =>
      Array.from({ length: 5 }, (_, p) => ({ url: `${busy.url}/${n}/${p}`, depth: 1, inSitemap: false }));
    const admitted = await Promise.all(started.map((audit, n) => audits.admitPages(stack.db, audit.id, found(n))));
    expect(admitted.flat()).toHaveLength(7);
    const rows = await stack.db.audit.findMany({ where: { clientId: ids.busy } });
    expect(rows.reduce((sum, audit) => sum + audit.discovered, 0)).toBe(7);
    // whichever came first admitted all five; the other two were held to what was left
    expect(rows.filter((audit) => audit.crawlLimit === "client_page_quota")).toHaveLength(2);
  });

  it("an audit's own max_pages left a page out: its crawl says so", async () => {
    const site = await stack.db.site.findUniqueOrThrow({ where: { id: ids.siteNone } });
    const audit = await audits.insertDiscovering(stack.db, {
      workspaceId,
      userId: site.userId,
      siteId: site.id,
      startUrl: `${site.url}/`,
      mode: "quick",
      maxPages: 2,
      include: [],
      exclude: [],
      requestId: "max-pages-test",
    });
    const found = ["/", "/one", "/two"].map((path) => ({ url: `${site.url}${path}`, depth: 1, inSitemap: false }));
    expect(await audits.admitPages(stack.db, audit.id, found.slice(0, 2))).toHaveLength(2);
    expect((await stack.db.audit.findUniqueOrThrow({ where: { id: audit.id } })).crawlLimit).toBeNull();
    expect(await audits.admitPages(stack.db, audit.id, found)).toEqual([]);
    const view = body(await call(token, "GET", `/api/v1/audits/${audit.id}`)).data;
    expect(view.crawl_limit).toEqual({
      reason: "max_pages",
      message: "The audit found more pages than its max_pages of 2; it scanned the first 2 found.",
    });
  });
});
