import { Writable } from "node:stream";
import { createLogger } from "@scan/platform";
import { createAccount, type TestAccount } from "./support/accounts";
import { body } from "./support/accounts-api";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import { type ApiResponse, api, type Stack, startStack } from "./support/stack";

/**
 * The tracking configuration of AI visibility over the REST API, against Postgres: a site's
 * profile, prompts (and their CSV import) and competitors (within the plan's number), and the
 * workspace's engine keys, sealed and never shown. Both envelopes; another workspace sees and
 * changes nothing; a viewer reads, a member writes, only owners and admins touch engine keys.
 */

afterAll(() => stopContainers());

const ENGINE_KEY = "sk-proj-visibility-0123456789abcdefWXYZ";

describe("visibility configuration", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  const lines: string[] = [];
  let alice: TestAccount;
  let bob: TestAccount;
  let siteA: string;
  let siteB: string;

  const as = (account: { key: string }, form: "A" | "B" = "A") => ({
    "x-api-key": account.key,
    ...(form === "B" ? { "x-response-form": "B" } : {}),
  });

  const call = (
    account: { key: string },
    method: string,
    path: string,
    payload?: unknown,
    form: "A" | "B" = "A",
  ): Promise<ApiResponse> =>
    api(base, path, { method, ...(payload === undefined ? {} : { body: payload }), headers: as(account, form) });

  const csv = (account: { key: string }, siteId: string, text: string, extra: Record<string, string> = {}) =>
    api(base, `/api/v1/sites/${siteId}/prompts/import`, {
      method: "POST",
      rawBody: text,
      headers: { ...as(account), "content-type": "text/csv; charset=utf-8", ...extra },
    });

  const siteFor = async (account: TestAccount, url: string) => {
    const made = await call(account, "POST", "/api/v1/sites", { url, name: "Acme" });
    expect(made.status).toBe(201);
    return body(made).data.id as string;
  };

  const expectInvalid = (response: ApiResponse, form: "A" | "B", message: RegExp) => {
    expect(response.status).toBe(400);
    if (form === "A") {
      expect(body(response)).toMatchObject({ ok: false, error: { code: "invalid_request", message } });
      expect(body(response).error.hint).toEqual(expect.any(String));
    } else {
      expect(body(response)).toEqual({ code: "VALIDATION_ERROR", error: expect.stringMatching(message) });
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: {
        SIGN_UP: "open",
        RATE_LIMIT_FREE: "100000",
        RATE_LIMIT_PRO: "100000",
        RATE_LIMIT_SESSION_READS: "100000",
        SITE_SECRETS_KEY: Buffer.alloc(32, 9).toString("base64"),
        COMPETITORS_FREE: "2",
      },
      log: createLogger(
        { service: "test", level: "debug" },
        new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      ),
    });
    base = stack.gateway.url;
    alice = await createAccount(stack.db, "free");
    bob = await createAccount(stack.db, "pro");
    siteA = await siteFor(alice, "https://acme.example");
    siteB = await siteFor(bob, "https://globex.example");
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  describe("profile", () => {
    it("answers the defaults drawn from the site before one is set, then the profile as set", async () => {
      const before = await call(alice, "GET", `/api/v1/sites/${siteA}/visibility`);
      expect(before.status).toBe(200);
      expect(body(before).data).toEqual({
        site_id: siteA,
        brand_names: ["Acme"],
        brand_domains: ["acme.example"],
        samples_per_prompt: 3,
        engines: ["chatgpt", "claude", "perplexity", "gemini"],
        configured: false,
        workspace_keys: [],
        prompt_count: 0,
        competitor_count: 0,
        updated_at: null,
      });
      expect(before.headers.get("etag")).toMatch(/^W\//);

      const set = await call(alice, "PUT", `/api/v1/sites/${siteA}/visibility`, {
        brand_names: ["Acme", "  Acme   Widgets "],
        brand_domains: ["ACME.example", "https://shop.acme.example/", "bücher.example"],
        samples_per_prompt: 5,
        engines: ["gemini", "claude"],
      });
      expect(set.status).toBe(200);
      expect(body(set).data).toMatchObject({
        brand_names: ["Acme", "Acme Widgets"],
        brand_domains: ["acme.example", "shop.acme.example", "xn--bcher-kva.example"],
        samples_per_prompt: 5,
        engines: ["claude", "gemini"],
        configured: true,
        updated_at: expect.any(String),
      });
      const read = await call(alice, "GET", `/api/v1/sites/${siteA}/visibility`, undefined, "B");
      expect(body(read)).toEqual({ success: true, data: body(set).data });
      const stored = await stack.db.visibilityProfile.findUniqueOrThrow({ where: { siteId: siteA } });
      expect(stored).toMatchObject({ userId: alice.user.id, samplesPerPrompt: 5, engines: ["claude", "gemini"] });
      // revalidation: the same profile is 304
      const again = await api(base, `/api/v1/sites/${siteA}/visibility`, {
        headers: { ...as(alice), "if-none-match": read.headers.get("etag") ?? "" },
      });
      expect(again.status).toBe(200); // Form A's tag differs from Form B's
      const tagA = (await call(alice, "GET", `/api/v1/sites/${siteA}/visibility`)).headers.get("etag") ?? "";
      const revalidated = await api(base, `/api/v1/sites/${siteA}/visibility`, {
        headers: { ...as(alice), "if-none-match": tagA },
      });
      expect(revalidated.status).toBe(304);
    });

    it.each(["A", "B"] as const)(
      "refuses a bad profile in Form %s, naming the field, and keeps the stored one",
      async (form) => {
        const before = await stack.db.visibilityProfile.findUnique({ where: { siteId: siteA } });
        const path = `/api/v1/sites/${siteA}/visibility`;
        const cases: [unknown, RegExp][] = [
          [{ brand_names: [] }, /brand_names: must name the brand at least once/],
          [{ brand_names: ["Acme", "ACME"] }, /brand_names: must not repeat an entry/],
          [{ brand_names: ["Acme"], samples_per_prompt: 11 }, /samples_per_prompt: must be an integer from 1 to 10/],
          [{ brand_names: ["Acme"], samples_per_prompt: 0 }, /samples_per_prompt: must be an integer from 1 to 10/],
          [
            { brand_names: ["Acme"], engines: ["bing"] },
            /engines.0: must be one of chatgpt, claude, perplexity, gemini/,
          ],
          [{ brand_names: ["Acme"], engines: [] }, /engines: must name at least one engine/],
          [{ brand_names: ["Acme"], brand_domains: ["acme.example/blog"] }, /without a path/],
          [{ brand_names: ["Acme"], brand_domains: ["10.0.0.1"] }, /not an IP address/],
          [{ brand_names: ["Acme"], brand_domains: ["localhost"] }, /full domain name/],
          [{ brand_names: ["Acme"], colour: "red" }, /unknown field "colour"/],
          [{ brand_names: ["x".repeat(101)] }, /at most 100 characters/],
        ];
        for (const [payload, message] of cases)
          expectInvalid(await call(alice, "PUT", path, payload, form), form, message);
        expect(await stack.db.visibilityProfile.findUnique({ where: { siteId: siteA } })).toEqual(before);
      },
    );
  });

  describe("prompts", () => {
    const promptsPath = () => `/api/v1/sites/${siteA}/prompts`;

    it("creates, reads, changes and deletes a prompt; a wording tracked already is 409 naming it", async () => {
      const made = await call(alice, "POST", promptsPath(), {
        text: "  What is the  best widget for boat panels? ",
        topic: "Marine",
        tags: ["Buying", "boats"],
        locale: "en-gb",
      });
      expect(made.status).toBe(201);
      const prompt = body(made).data;
      expect(prompt).toMatchObject({
        site_id: siteA,
        text: "What is the best widget for boat panels?",
        topic: "Marine",
        tags: ["buying", "boats"],
        locale: "en-GB",
      });
      const clash = await call(alice, "POST", promptsPath(), { text: "what is the best widget for BOAT panels" }, "B");
      expect(clash.status).toBe(409);
      expect(body(clash)).toEqual({ code: "CONFLICT", error: expect.stringContaining(prompt.id) });

      const changed = await call(alice, "PATCH", `${promptsPath()}/${prompt.id}`, { topic: null, tags: [] });
      expect(changed.status).toBe(200);
      expect(body(changed).data).toMatchObject({ id: prompt.id, topic: null, tags: [], locale: "en-GB" });
      expectInvalid(await call(alice, "PATCH", `${promptsPath()}/${prompt.id}`, {}), "A", /must change at least one/);
      expectInvalid(
        await call(alice, "POST", promptsPath(), { text: "x".repeat(501) }, "B"),
        "B",
        /text: must be at most 500 characters/,
      );
      expectInvalid(await call(alice, "POST", promptsPath(), { text: "ok", locale: "english!" }), "A", /BCP 47/);

      const read = await call(alice, "GET", `${promptsPath()}/${prompt.id}`);
      expect(body(read).data.id).toBe(prompt.id);
      const removed = await call(alice, "DELETE", `${promptsPath()}/${prompt.id}`);
      expect(body(removed).data).toEqual({ id: prompt.id, deleted: true });
      expect((await call(alice, "GET", `${promptsPath()}/${prompt.id}`)).status).toBe(404);
    });

    it("replays a create with the same Idempotency-Key instead of adding it twice", async () => {
      const send = () =>
        api(base, promptsPath(), {
          method: "POST",
          body: { text: "Idempotent prompt" },
          headers: { ...as(alice), "idempotency-key": "prompt-once-1" },
        });
      const first = await send();
      const second = await send();
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.headers.get("idempotent-replayed")).toBe("true");
      expect(body(second).data.id).toBe(body(first).data.id);
      expect(await stack.db.visibilityPrompt.count({ where: { siteId: siteA, text: "Idempotent prompt" } })).toBe(1);
    });

    it("lists newest first with paging and filters by text, topic, tag and locale", async () => {
      const site = await siteFor(alice, "https://lists.example");
      const path = `/api/v1/sites/${site}/prompts`;
      const imported = await csv(
        alice,
        site,
        "text,topic,tags,locale\nalpha 100%,crm,a|b,en-US\nbeta,crm,b,de-DE\ngamma,seo,,\n",
      );
      expect(imported.status).toBe(201);
      const all = await call(alice, "GET", `${path}?limit=2`);
      expect(body(all).meta).toMatchObject({ page: 1, limit: 2, total: 3, hasMore: true });
      expect(all.headers.get("link")).toContain('rel="next"');
      const texts = async (query: string) =>
        (body(await call(alice, "GET", `${path}?${query}`)).data as { text: string }[]).map((p) => p.text).sort();
      expect(await texts("topic=CRM")).toEqual(["alpha 100%", "beta"]);
      expect(await texts("tag=B")).toEqual(["alpha 100%", "beta"]);
      expect(await texts("locale=de-de")).toEqual(["beta"]);
      expect(await texts("q=100%25")).toEqual(["alpha 100%"]);
      expect(await texts("q=%25")).toEqual(["alpha 100%"]);
      expectInvalid(await call(alice, "GET", `${path}?limit=101`, undefined, "B"), "B", /limit/);
      expectInvalid(await call(alice, "GET", `${path}?sort=text`), "A", /unknown query parameter "sort"/);
      expectInvalid(await call(alice, "GET", `${path}?locale=%21%21`), "A", /BCP 47/);
    });
  });

  describe("CSV import", () => {
    it("imports every row, skips what the site tracks or an earlier row holds, and imports again as a no-op", async () => {
      const site = await siteFor(alice, "https://import.example");
      expect((await call(alice, "POST", `/api/v1/sites/${site}/prompts`, { text: "Already here?" })).status).toBe(201);
      const file =
        '\uFEFFText,Topic,Tags,Locale\r\n"Best CRM, for teams?",crm,"pricing|smb",en-us\r\nalready here,,,\r\n\r\n"BEST crm, for teams",,,\r\n"multi\nline",,,\r\n';
      const first = await csv(alice, site, file);
      expect(first.status).toBe(201);
      const result = body(first).data;
      expect(result).toMatchObject({ rows: 4, imported: 2 });
      expect(result.prompts.map((p: { text: string }) => p.text)).toEqual(["Best CRM, for teams?", "multi line"]);
      expect(result.prompts[0]).toMatchObject({ topic: "crm", tags: ["pricing", "smb"], locale: "en-US" });
      const tracked = await stack.db.visibilityPrompt.findFirstOrThrow({
        where: { siteId: site, text: "Already here?" },
      });
      expect(result.skipped).toEqual([
        { row: 3, text: "already here", reason: "tracked", prompt_id: tracked.id },
        { row: 5, text: "BEST crm, for teams", reason: "repeated", prompt_id: result.prompts[0].id },
      ]);
      const again = await csv(alice, site, file);
      expect(again.status).toBe(200);
      expect(body(again).data).toMatchObject({ rows: 4, imported: 0, prompts: [] });
      expect(await stack.db.visibilityPrompt.count({ where: { siteId: site } })).toBe(3);
    });

    it("is all or nothing: a row at fault refuses the file, naming its rows, in both forms", async () => {
      const site = await siteFor(alice, "https://faulty.example");
      const file = `text,locale\ngood one,en\n,en\n${"x".repeat(501)},en\nfine,xx-!!\n`;
      for (const form of ["A", "B"] as const) {
        const refused = await api(base, `/api/v1/sites/${site}/prompts/import`, {
          method: "POST",
          rawBody: file,
          headers: { ...as(alice, form), "content-type": "text/csv" },
        });
        expectInvalid(
          refused,
          form,
          /Nothing was imported: 3 of 4 rows cannot be imported\. row 3: text: must not be blank; row 4: text: must be at most 500 characters; row 5: locale:/,
        );
      }
      expect(await stack.db.visibilityPrompt.count({ where: { siteId: site } })).toBe(0);
    });

    it("refuses what is no prompts file, saying why", async () => {
      const site = await siteFor(alice, "https://refusals.example");
      expectInvalid(await csv(alice, site, ""), "A", /empty/);
      expectInvalid(await csv(alice, site, "text,colour\na,red\n"), "A", /"colour", which is not a column/);
      expectInvalid(await csv(alice, site, "topic\ncrm\n"), "A", /no text column/);
      expectInvalid(await csv(alice, site, 'text\n"never closed\n'), "A", /not well-formed CSV/);
      const many = `text\n${Array.from({ length: 1_001 }, (_, i) => `p${i}`).join("\n")}\n`;
      expectInvalid(await csv(alice, site, many), "A", /at most 1000/);
      // sent as JSON, or without a body: the 400 says to send CSV
      expectInvalid(
        await call(alice, "POST", `/api/v1/sites/${site}/prompts/import`, { text: "x" }),
        "A",
        /sent as application\/json, which is not CSV/,
      );
      const bare = await api(base, `/api/v1/sites/${site}/prompts/import`, { method: "POST", headers: as(alice) });
      expectInvalid(bare, "A", /no body/);
      expect(await stack.db.visibilityPrompt.count({ where: { siteId: site } })).toBe(0);
    });

    it("takes a semicolon-separated file as spreadsheets save it", async () => {
      const site = await siteFor(alice, "https://semicolon.example");
      const imported = await csv(alice, site, "text;tags\nbeste Software, günstig;a,b\n");
      expect(imported.status).toBe(201);
      expect(body(imported).data.prompts[0]).toMatchObject({ text: "beste Software, günstig", tags: ["a", "b"] });
    });
  });

  describe("competitors", () => {
    it("adds within the plan's number per site, then 403 plan_limit in both forms; names are one per site", async () => {
      const site = await siteFor(alice, "https://rivals.example");
      const path = `/api/v1/sites/${site}/competitors`;
      const one = await call(alice, "POST", path, {
        name: "Globex",
        aliases: ["Globex Corp"],
        domains: ["globex.example"],
      });
      expect(one.status).toBe(201);
      expect(body(one).data).toMatchObject({ name: "Globex", aliases: ["Globex Corp"], domains: ["globex.example"] });
      const clash = await call(alice, "POST", path, { name: "GLOBEX" });
      expect(clash.status).toBe(409);
      expect((await call(alice, "POST", path, { name: "Initech" })).status).toBe(201);
      // the free plan is set to 2 here (COMPETITORS_FREE)
      const over = await call(alice, "POST", path, { name: "Umbrella" });
      expect(over.status).toBe(403);
      expect(body(over).error).toMatchObject({
        code: "forbidden",
        message: /free plan measures each site against at most 2/,
      });
      const overB = await call(alice, "POST", path, { name: "Umbrella" }, "B");
      expect(body(overB)).toEqual({ code: "PLAN_LIMIT", error: expect.stringMatching(/at most 2/) });
      expect(await stack.db.competitor.count({ where: { siteId: site } })).toBe(2);
      // another site has its own allowance
      expect((await call(alice, "POST", `/api/v1/sites/${siteA}/competitors`, { name: "Umbrella" })).status).toBe(201);

      const listed = await call(alice, "GET", `${path}?q=Globex%20Corp`);
      expect(body(listed).data.map((c: { name: string }) => c.name)).toEqual(["Globex"]);
      const changed = await call(alice, "PATCH", `${path}/${body(one).data.id}`, { domains: [] });
      expect(body(changed).data).toMatchObject({ name: "Globex", domains: [] });
      expectInvalid(await call(alice, "PATCH", `${path}/${body(one).data.id}`, { domains: ["127.0.0.1"] }), "A", /IP/);
      const removed = await call(alice, "DELETE", `${path}/${body(one).data.id}`);
      expect(body(removed).data).toEqual({ id: body(one).data.id, deleted: true });
      expect((await call(alice, "POST", path, { name: "Umbrella" })).status).toBe(201);
    });

    it("refuses a bad competitor in Form B, naming the field", async () => {
      const path = `/api/v1/sites/${siteA}/competitors`;
      expectInvalid(await call(alice, "POST", path, { name: "" }, "B"), "B", /name: must not be blank/);
      expectInvalid(
        await call(alice, "POST", path, { name: "A", domains: ["a.example/x"] }, "B"),
        "B",
        /without a path/,
      );
      expectInvalid(await call(alice, "POST", path, { name: "A", aliases: ["b", "B"] }, "B"), "B", /must not repeat/);
    });
  });

  describe("tenancy", () => {
    it("another workspace's site, prompt and competitor are 404 and never change", async () => {
      const prompt = body(await call(bob, "POST", `/api/v1/sites/${siteB}/prompts`, { text: "Bob's prompt" })).data;
      const competitor = body(
        await call(bob, "POST", `/api/v1/sites/${siteB}/competitors`, { name: "Bob's rival" }),
      ).data;
      await call(bob, "PUT", `/api/v1/sites/${siteB}/visibility`, { brand_names: ["Globex"] });
      const snapshot = async () =>
        JSON.stringify(
          await Promise.all([
            stack.db.visibilityProfile.findMany({ where: { siteId: siteB } }),
            stack.db.visibilityPrompt.findMany({ where: { siteId: siteB }, orderBy: { id: "asc" } }),
            stack.db.competitor.findMany({ where: { siteId: siteB }, orderBy: { id: "asc" } }),
          ]),
        );
      const before = await snapshot();
      const attempts: [string, string, unknown?][] = [
        ["GET", `/api/v1/sites/${siteB}/visibility`],
        ["PUT", `/api/v1/sites/${siteB}/visibility`, { brand_names: ["Taken"] }],
        ["GET", `/api/v1/sites/${siteB}/prompts`],
        ["POST", `/api/v1/sites/${siteB}/prompts`, { text: "taken" }],
        ["GET", `/api/v1/sites/${siteB}/prompts/${prompt.id}`],
        ["PATCH", `/api/v1/sites/${siteB}/prompts/${prompt.id}`, { text: "taken" }],
        ["DELETE", `/api/v1/sites/${siteB}/prompts/${prompt.id}`],
        // alice's own site, bob's prompt: still not hers
        ["GET", `/api/v1/sites/${siteA}/prompts/${prompt.id}`],
        ["PATCH", `/api/v1/sites/${siteA}/prompts/${prompt.id}`, { text: "taken" }],
        ["DELETE", `/api/v1/sites/${siteA}/prompts/${prompt.id}`],
        ["GET", `/api/v1/sites/${siteB}/competitors`],
        ["POST", `/api/v1/sites/${siteB}/competitors`, { name: "taken" }],
        ["PATCH", `/api/v1/sites/${siteB}/competitors/${competitor.id}`, { name: "taken" }],
        ["DELETE", `/api/v1/sites/${siteA}/competitors/${competitor.id}`],
      ];
      for (const [method, path, payload] of attempts) {
        for (const form of ["A", "B"] as const) {
          const response = await call(alice, method, path, payload, form);
          expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
          const text = JSON.stringify(response.body);
          expect(text.includes("Bob's")).toBe(false);
        }
      }
      const imported = await csv(alice, siteB, "text\ntaken\n");
      expect(imported.status).toBe(404);
      expect(await snapshot()).toBe(before);
    });
  });

  describe("roles and engine keys", () => {
    type Member = { browser: Browser; token: string; userId: string };
    const signUp = async (label: string): Promise<Member> => {
      const browser = new Browser(base);
      const email = freshEmail(label);
      expect((await browser.signUp(email, PASSWORD)).status).toBe(201);
      const token = await browser.token();
      const userId = (await stack.db.user.findUniqueOrThrow({ where: { email } })).id;
      return { browser, token, userId };
    };
    const jwt = (member: Member, method: string, path: string, payload?: unknown, form: "A" | "B" = "A") =>
      api(base, path, {
        method,
        ...(payload === undefined ? {} : { body: payload }),
        headers: { authorization: `Bearer ${member.token}`, "x-response-form": form },
      });

    let owner: Member;
    let workspace: string;
    let site: string;
    const team = new Map<string, Member>();

    beforeAll(async () => {
      owner = await signUp("vis-owner");
      workspace = (await stack.db.workspace.findUniqueOrThrow({ where: { personalUserId: owner.userId } })).id;
      const made = await jwt(owner, "POST", "/api/v1/sites", { url: "https://team.example", name: "Team" });
      site = body(made).data.id;
      for (const role of ["admin", "member", "viewer"] as const) {
        const member = await signUp(`vis-${role}`);
        const invited = await jwt(owner, "POST", `/api/v1/workspaces/${workspace}/invitations`, {
          email: (await stack.db.user.findUniqueOrThrow({ where: { id: member.userId } })).email,
          role,
        });
        const link: string = body(invited).data.link;
        const token = link.slice(link.indexOf("#token=") + 7);
        expect((await jwt(member, "POST", "/api/v1/workspaces/invitations/accept", { token })).status).toBe(200);
        expect((await jwt(member, "POST", `/api/v1/workspaces/${workspace}/switch`)).status).toBe(200);
        team.set(role, member);
      }
    }, 120_000);

    it("a viewer reads and is refused every write (403, both forms); a member writes prompts and competitors", async () => {
      const viewer = team.get("viewer") as Member;
      const member = team.get("member") as Member;
      expect((await jwt(viewer, "GET", `/api/v1/sites/${site}/visibility`)).status).toBe(200);
      expect((await jwt(viewer, "GET", `/api/v1/sites/${site}/prompts`)).status).toBe(200);
      const writes: [string, string, unknown?][] = [
        ["PUT", `/api/v1/sites/${site}/visibility`, { brand_names: ["Team"] }],
        ["POST", `/api/v1/sites/${site}/prompts`, { text: "viewer's" }],
        ["POST", `/api/v1/sites/${site}/competitors`, { name: "viewer's" }],
      ];
      for (const [method, path, payload] of writes) {
        const refusedA = await jwt(viewer, method, path, payload);
        expect(refusedA.status).toBe(403);
        expect(body(refusedA).error).toMatchObject({ code: "forbidden", message: /viewer/ });
        const refusedB = await jwt(viewer, method, path, payload, "B");
        expect(body(refusedB)).toMatchObject({ code: "FORBIDDEN" });
      }
      const importRefused = await api(base, `/api/v1/sites/${site}/prompts/import`, {
        method: "POST",
        rawBody: "text\nviewer's\n",
        headers: { authorization: `Bearer ${viewer.token}`, "content-type": "text/csv" },
      });
      expect(importRefused.status).toBe(403);
      expect(await stack.db.visibilityPrompt.count({ where: { siteId: site } })).toBe(0);

      for (const [method, path, payload] of writes)
        expect((await jwt(member, method, path, payload)).status).toBeLessThan(300);
      const prompt = await stack.db.visibilityPrompt.findFirstOrThrow({ where: { siteId: site } });
      expect(prompt).toMatchObject({ userId: member.userId, workspaceId: workspace });
    });

    it("engine keys: owners and admins set, list and remove them; the key is sealed and never answered or logged", async () => {
      const admin = team.get("admin") as Member;
      const path = `/api/v1/workspaces/${workspace}/engine-keys`;
      const set = await jwt(admin, "PUT", `${path}/claude`, { api_key: ENGINE_KEY, model: "claude-sonnet-4-5" });
      expect(set.status).toBe(201);
      expect(body(set).data).toEqual({
        engine: "claude",
        model: "claude-sonnet-4-5",
        key_last4: "WXYZ",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const replaced = await jwt(owner, "PUT", `${path}/claude`, { api_key: `${ENGINE_KEY}-2nd9` }, "B");
      expect(replaced.status).toBe(200);
      expect(body(replaced)).toMatchObject({
        success: true,
        data: { engine: "claude", model: null, key_last4: "2nd9" },
      });
      const listed = await jwt(owner, "GET", path);
      expect(body(listed).data).toEqual([expect.objectContaining({ engine: "claude", key_last4: "2nd9" })]);
      const profile = await jwt(owner, "GET", `/api/v1/sites/${site}/visibility`);
      expect(body(profile).data.workspace_keys).toEqual(["claude"]);

      // sealed at rest: the column holds neither the key nor any long piece of it
      const stored = await stack.db.engineKey.findFirstOrThrow({ where: { workspaceId: workspace } });
      expect(stored.keySealed).toMatch(/^v1\.[0-9a-f]{16}\./);
      expect(stored.keySealed.includes(ENGINE_KEY.slice(0, 12))).toBe(false);

      // members and viewers: 403; someone outside the workspace: 404
      for (const role of ["member", "viewer"] as const) {
        const refused = await jwt(team.get(role) as Member, "GET", path);
        expect(refused.status).toBe(403);
      }
      const member = team.get("member") as Member;
      expect((await jwt(member, "PUT", `${path}/gemini`, { api_key: ENGINE_KEY })).status).toBe(403);
      const outsider = await signUp("vis-outsider");
      expect((await jwt(outsider, "GET", path)).status).toBe(404);
      expect((await jwt(outsider, "PUT", `${path}/gemini`, { api_key: ENGINE_KEY })).status).toBe(404);
      expect((await jwt(outsider, "DELETE", `${path}/claude`)).status).toBe(404);
      // an API key manages no workspace
      const keyed = await api(base, path, { headers: { "x-api-key": alice.key } });
      expect(keyed.status).toBe(401);

      expectInvalid(await jwt(owner, "PUT", `${path}/bing`, { api_key: ENGINE_KEY }), "A", /engine must be one of/);
      expectInvalid(await jwt(owner, "PUT", `${path}/gemini`, { api_key: "short" }, "B"), "B", /at least 16/);
      expectInvalid(await jwt(owner, "PUT", `${path}/gemini`, { api_key: `${ENGINE_KEY} x` }), "A", /without spaces/);
      expectInvalid(await jwt(owner, "PUT", `${path}/gemini`, { api_key: ENGINE_KEY, model: "a b" }), "A", /model/);

      const removed = await jwt(admin, "DELETE", `${path}/claude`);
      expect(body(removed).data).toEqual({ engine: "claude", deleted: true });
      expect((await jwt(admin, "DELETE", `${path}/claude`)).status).toBe(404);
      expect(await stack.db.engineKey.count({ where: { workspaceId: workspace } })).toBe(0);

      // no log line and no answer held the key, whole or past its last four characters
      const logged = lines.join("\n");
      expect(logged.includes(ENGINE_KEY.slice(0, 20))).toBe(false);
      expect(JSON.stringify([set.body, replaced.body, listed.body]).includes(ENGINE_KEY.slice(0, 20))).toBe(false);
    });
  });
});
