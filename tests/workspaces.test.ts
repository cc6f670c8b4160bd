import { body } from "./support/accounts-api";
import { gatewayRoutes, type RouteInfo } from "./support/routes";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Tenancy: for each role a member can hold in a workspace, every /api/v1 route the gateway
 * mounts is walked against a second workspace's resources; each is 404 (a viewer's writes 403)
 * and none of them changes. Then the member flows: invitations, roles, removal, switching.
 */

type Role = "owner" | "admin" | "member" | "viewer";
const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

type Member = { browser: Browser; token: string; userId: string; email: string };

describe("workspaces", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  let routes: RouteInfo[];
  /** the walkers' workspace (ownerA's personal one) and the other one (ownerB's) */
  let workspaceA: string;
  let workspaceB: string;
  const members = new Map<Role, Member>();
  let ownerB: Member;
  /** the other workspace's resources, by kind */
  const other: Record<string, string> = {};

  const call = (token: string, method: string, path: string, payload?: unknown, form: "A" | "B" = "A") =>
    api(base, path, {
      method,
      ...(payload === undefined ? {} : { body: payload }),
      headers: { authorization: `Bearer ${token}`, "x-response-form": form },
    });

  const signUp = async (label: string): Promise<Member> => {
    const browser = new Browser(base);
    const email = freshEmail(label);
    const signedUp = await browser.signUp(email, PASSWORD);
    expect(signedUp.status).toBe(201);
    const token = await browser.token();
    const me = await call(token, "GET", "/api/v1/workspaces");
    expect(me.status).toBe(200);
    const userId = (await stack.db.user.findUniqueOrThrow({ where: { email } })).id;
    return { browser, token, userId, email };
  };

  const personalOf = async (userId: string) =>
    (await stack.db.workspace.findUniqueOrThrow({ where: { personalUserId: userId } })).id;

  /** Invites `invitee` into `workspaceId` with `role` by `by`, accepts, and switches the invitee's session to it. */
  const join = async (by: Member, invitee: Member, workspaceId: string, role: Role) => {
    const invited = await call(by.token, "POST", `/api/v1/workspaces/${workspaceId}/invitations`, {
      email: invitee.email,
      role,
    });
    expect(invited.status).toBe(201);
    const link: string = body(invited).data.link;
    expect(link).toMatch(/\/app\/workspace-invitation#token=/);
    const token = link.slice(link.indexOf("#token=") + "#token=".length);
    const accepted = await call(invitee.token, "POST", "/api/v1/workspaces/invitations/accept", { token });
    expect(accepted.status).toBe(200);
    expect(body(accepted).data).toMatchObject({ id: workspaceId, role, current: false });
    const switched = await call(invitee.token, "POST", `/api/v1/workspaces/${workspaceId}/switch`);
    expect(switched.status).toBe(200);
    expect(body(switched).data).toMatchObject({ id: workspaceId, role, current: true });
    return token;
  };

  /** Everything the other workspace holds, as stored. */
  const snapshotB = async () => {
    const where = { workspaceId: workspaceB };
    return JSON.stringify(
      await Promise.all([
        stack.db.workspace.findUnique({ where: { id: workspaceB } }),
        stack.db.membership.findMany({ where, orderBy: { userId: "asc" } }),
        stack.db.workspaceInvitation.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.site.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.keyword.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.citationTrack.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.scan.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.audit.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.auditSchedule.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.apiKey.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.client.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.visibilityProfile.findMany({ where, orderBy: { siteId: "asc" } }),
        stack.db.visibilityPrompt.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.competitor.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.engineKey.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.visibilityRun.findMany({ where, orderBy: { id: "asc" } }),
        stack.db.visibilitySample.findMany({ where: { run: where }, orderBy: { id: "asc" } }),
        stack.db.session.findMany({ where: { userId: ownerB.userId }, orderBy: { id: "asc" } }),
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

    const ownerA = await signUp("owner-a");
    ownerB = await signUp("owner-b");
    workspaceA = await personalOf(ownerA.userId);
    workspaceB = await personalOf(ownerB.userId);
    members.set("owner", ownerA);
    for (const role of ["admin", "member", "viewer"] as const) {
      const member = await signUp(role);
      await join(ownerA, member, workspaceA, role);
      members.set(role, member);
    }

    // the other workspace's records, made by its owner
    const site = await call(ownerB.token, "POST", "/api/v1/sites", { url: "https://example.com", name: "B" });
    expect(site.status).toBe(201);
    other.site = body(site).data.id;
    const keyword = await call(ownerB.token, "POST", "/api/v1/keywords", {
      site_id: other.site,
      keyword: "b keyword",
      position: 3,
      volume: 10,
      difficulty: 5,
    });
    expect(keyword.status).toBe(201);
    other.keyword = body(keyword).data.id;
    const citation = await call(ownerB.token, "POST", "/api/v1/citations", {
      site_id: other.site,
      platform: "chatgpt",
      query_text: "b query",
      cited: true,
      citation_url: "https://example.com/cited",
    });
    expect(citation.status).toBe(201);
    other.citation = body(citation).data.id;
    const client = await call(ownerB.token, "POST", "/api/v1/clients", { name: "B client", notes: "b" });
    expect(client.status).toBe(201);
    other.client = body(client).data.id;
    const assigned = await call(ownerB.token, "PATCH", `/api/v1/sites/${other.site}`, { client_id: other.client });
    expect(body(assigned).data.client_id).toBe(other.client);
    const profile = await call(ownerB.token, "PUT", `/api/v1/sites/${other.site}/visibility`, { brand_names: ["B"] });
    expect(profile.status).toBe(200);
    const prompt = await call(ownerB.token, "POST", `/api/v1/sites/${other.site}/prompts`, { text: "b prompt" });
    expect(prompt.status).toBe(201);
    other.prompt = body(prompt).data.id;
    const competitor = await call(ownerB.token, "POST", `/api/v1/sites/${other.site}/competitors`, { name: "B rival" });
    expect(competitor.status).toBe(201);
    other.competitor = body(competitor).data.id;
    const engineKey = await call(ownerB.token, "PUT", `/api/v1/workspaces/${workspaceB}/engine-keys/claude`, {
      api_key: "sk-ant-workspace-b-0123456789",
    });
    expect(engineKey.status).toBe(201);
    const key = await call(ownerB.token, "POST", "/api/v1/keys", {});
    expect(key.status).toBe(201);
    other.key = body(key).data.id;
    const invitation = await call(ownerB.token, "POST", `/api/v1/workspaces/${workspaceB}/invitations`, {
      email: freshEmail("invitee-b"),
    });
    expect(invitation.status).toBe(201);
    other.invitation = body(invitation).data.id;
    const link: string = body(invitation).data.link;
    other.invitationToken = link.slice(link.indexOf("#token=") + 7);
    const scan = await stack.db.scan.create({
      data: { url: "https://example.com/", mode: "quick", userId: ownerB.userId, workspaceId: workspaceB },
    });
    other.scan = scan.id;
    const audit = await stack.db.audit.create({
      data: {
        userId: ownerB.userId,
        workspaceId: workspaceB,
        siteId: other.site as string,
        startUrl: "https://example.com/",
        mode: "quick",
        maxPages: 5,
        include: [],
        exclude: [],
        status: "completed",
      },
    });
    other.audit = audit.id;
    const run = await stack.db.visibilityRun.create({
      data: {
        userId: ownerB.userId,
        workspaceId: workspaceB,
        siteId: other.site as string,
        engines: ["claude"],
        samplesPerPrompt: 1,
        planned: 1,
        status: "running",
        samples: {
          create: [{ promptId: other.prompt as string, promptText: "b prompt", engine: "claude", sampleIndex: 0 }],
        },
      },
    });
    other.run = run.id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  /**
   * How each mounted /api/v1 route is walked: the path with another workspace's resource in it,
   * a valid body naming it, and whether the route is about that resource at all (`about: false`:
   * it reaches only the caller's own workspace, so it is checked to show nothing of the other).
   */
  const walkOf = (
    route: RouteInfo,
  ): {
    path: string;
    payload?: unknown;
    /** a CSV body (text/csv) instead of a JSON one */
    csv?: string;
    about: boolean;
    viewerMayWrite?: boolean;
    expect?: number;
  } => {
    const key = `${route.method} ${route.path}`;
    const fill = (path: string, id: string) =>
      path
        .replace(":id", id)
        .replace(":userId", ownerB.userId)
        .replace(":invitationId", other.invitation ?? "")
        .replace(":promptId", other.prompt ?? "")
        .replace(":competitorId", other.competitor ?? "")
        .replace(":engine", "claude")
        .replace(":check", "meta-description");
    const site = (path: string) => fill(path, other.site ?? "");
    switch (key) {
      case "GET /api/v1/scan/:id":
      case "GET /api/v1/scan/:id/events":
        return { path: fill(route.path, other.scan ?? ""), about: true };
      case "GET /api/v1/scans":
        return { path: `/api/v1/scans?site_id=${other.site}`, about: true };
      case "GET /api/v1/clients/:id":
      case "DELETE /api/v1/clients/:id":
        return { path: fill(route.path, other.client ?? ""), about: true };
      case "PATCH /api/v1/clients/:id":
        return { path: fill(route.path, other.client ?? ""), payload: { name: "taken" }, about: true };
      case "GET /api/v1/keywords":
        return { path: `/api/v1/keywords?site_id=${other.site}`, about: true };
      case "GET /api/v1/usage":
        return { path: `/api/v1/usage?client_id=${other.client}`, about: true };
      case "GET /api/v1/citations":
        return { path: `/api/v1/citations?site_id=${other.site}`, about: true };
      case "POST /api/v1/keywords":
        return {
          path: route.path,
          payload: { site_id: other.site, keyword: "taken", position: 1, volume: 1, difficulty: 1 },
          about: true,
        };
      case "POST /api/v1/citations":
        return {
          path: route.path,
          payload: { site_id: other.site, platform: "claude", query_text: "taken", cited: false },
          about: true,
        };
      case "GET /api/v1/sites/:id":
      case "DELETE /api/v1/sites/:id":
      case "GET /api/v1/sites/:id/credentials":
      case "DELETE /api/v1/sites/:id/credentials":
      case "GET /api/v1/sites/:id/history":
      case "GET /api/v1/sites/:id/schedule":
      case "DELETE /api/v1/sites/:id/schedule":
      case "GET /api/v1/sites/:id/audits":
      case "GET /api/v1/sites/:id/alerts":
      case "GET /api/v1/sites/:id/visibility/alerts":
        return { path: site(route.path), about: true };
      case "GET /api/v1/sites/:id/visibility":
      case "GET /api/v1/sites/:id/prompts":
      case "GET /api/v1/sites/:id/prompts/:promptId":
      case "DELETE /api/v1/sites/:id/prompts/:promptId":
      case "GET /api/v1/sites/:id/competitors":
      case "GET /api/v1/sites/:id/competitors/:competitorId":
      case "DELETE /api/v1/sites/:id/competitors/:competitorId":
        return { path: site(route.path), about: true };
      case "PUT /api/v1/sites/:id/visibility":
        return { path: site(route.path), payload: { brand_names: ["Taken"] }, about: true };
      case "GET /api/v1/sites/:id/visibility/runs":
        return { path: site(route.path), about: true };
      case "POST /api/v1/sites/:id/visibility/runs":
        return { path: site(route.path), payload: {}, about: true };
      case "GET /api/v1/visibility/runs/:id":
      case "GET /api/v1/visibility/runs/:id/samples":
      case "GET /api/v1/visibility/runs/:id/cited-pages":
      case "DELETE /api/v1/visibility/runs/:id":
        return { path: fill(route.path, other.run ?? ""), about: true };
      case "POST /api/v1/visibility/runs/:id/cited-pages":
        return { path: fill(route.path, other.run ?? ""), payload: {}, about: true };
      case "POST /api/v1/aeo-2/evaluate":
        // a stored run of another workspace is not scored
        return { path: route.path, payload: { runId: other.run ?? "" }, about: true };
      case "POST /api/v1/sites/:id/prompts":
      case "PATCH /api/v1/sites/:id/prompts/:promptId":
        return { path: site(route.path), payload: { text: "taken" }, about: true };
      case "POST /api/v1/sites/:id/prompts/import":
        return { path: site(route.path), csv: "text\ntaken\n", about: true };
      case "POST /api/v1/sites/:id/keywords/search-console":
        // refused before Search Console is asked: the site is not the caller's
        return {
          path: site(route.path),
          payload: {
            access_token: "ya29.taken",
            property: "sc-domain:taken.example",
            start_date: "2026-10-01",
            end_date: "2026-10-31",
          },
          about: true,
        };
      case "POST /api/v1/sites/:id/keywords/import":
        return {
          path: site(route.path),
          csv: "Top queries,Clicks,Impressions,CTR,Position\ntaken,1,2,50%,3\n",
          about: true,
        };
      case "POST /api/v1/sites/:id/competitors":
      case "PATCH /api/v1/sites/:id/competitors/:competitorId":
        return { path: site(route.path), payload: { name: "taken" }, about: true };
      case "GET /api/v1/workspaces/:id/engine-keys":
      case "DELETE /api/v1/workspaces/:id/engine-keys/:engine":
        return { path: fill(route.path, workspaceB), about: true };
      case "PUT /api/v1/workspaces/:id/engine-keys/:engine":
        return { path: fill(route.path, workspaceB), payload: { api_key: "sk-taken-0123456789abcdef" }, about: true };
      case "PATCH /api/v1/sites/:id":
        return { path: site(route.path), payload: { name: "taken" }, about: true };
      case "PUT /api/v1/sites/:id/credentials":
        return { path: site(route.path), payload: { headers: { "X-Taken": "yes" } }, about: true };
      case "POST /api/v1/sites/:id/schedule":
        return { path: site(route.path), payload: { frequency: "weekly" }, about: true };
      case "POST /api/v1/sites/:id/audits":
        return { path: site(route.path), payload: {}, about: true };
      case "PATCH /api/v1/keywords/:id":
      case "DELETE /api/v1/keywords/:id":
        return {
          path: fill(route.path, other.keyword ?? ""),
          payload: route.method === "PATCH" ? { keyword: "taken" } : undefined,
          about: true,
        };
      case "PATCH /api/v1/citations/:id":
      case "DELETE /api/v1/citations/:id":
        return {
          path: fill(route.path, other.citation ?? ""),
          payload: route.method === "PATCH" ? { query_text: "taken" } : undefined,
          about: true,
        };
      case "DELETE /api/v1/keys/:id":
        return { path: fill(route.path, other.key ?? ""), about: true };
      case "GET /api/v1/audits/:id":
      case "DELETE /api/v1/audits/:id":
      case "GET /api/v1/audits/:id/pages":
      case "GET /api/v1/audits/:id/issues":
      case "GET /api/v1/audits/:id/issues/:check/pages":
      case "GET /api/v1/audits/:id/report":
      case "GET /api/v1/audits/:id/events":
        return { path: fill(route.path, other.audit ?? ""), about: true };
      case "GET /api/v1/workspaces/:id":
      case "GET /api/v1/workspaces/:id/members":
      case "GET /api/v1/workspaces/:id/invitations":
      case "GET /api/v1/workspaces/:id/audit-log":
      case "DELETE /api/v1/workspaces/:id/members/:userId":
      case "DELETE /api/v1/workspaces/:id/invitations/:invitationId":
        return { path: fill(route.path, workspaceB), about: true };
      case "POST /api/v1/workspaces/:id/switch":
        return { path: fill(route.path, workspaceB), about: true, viewerMayWrite: true };
      case "PATCH /api/v1/workspaces/:id":
        return { path: fill(route.path, workspaceB), payload: { name: "taken" }, about: true };
      case "PATCH /api/v1/workspaces/:id/members/:userId":
        return { path: fill(route.path, workspaceB), payload: { role: "viewer" }, about: true };
      case "POST /api/v1/workspaces/:id/invitations":
        return { path: fill(route.path, workspaceB), payload: { email: freshEmail("taken") }, about: true };
      case "POST /api/v1/workspaces/invitations/accept":
        // another email's invitation into the other workspace: refused, whatever the role
        return {
          path: route.path,
          payload: { token: other.invitationToken },
          about: true,
          viewerMayWrite: true,
          expect: 403,
        };
      // the caller's own workspace alone: nothing of the other may show
      case "GET /api/v1/sites":
      case "GET /api/v1/clients":
      case "POST /api/v1/clients":
      case "GET /api/v1/branding":
      case "PUT /api/v1/branding":
      case "GET /api/v1/keys":
      case "GET /api/v1/workspaces":
      case "GET /api/v1/account":
      case "GET /api/v1/operations":
      case "POST /api/v1/scan":
      case "POST /api/v1/scans/batch":
      case "POST /api/v1/sites":
      case "POST /api/v1/keys":
      case "POST /api/v1/fix":
      case "POST /api/v1/generate":
        return { path: route.path, about: false };
      default:
        throw new Error(`no walk for ${key}: say how it reaches another workspace's resources`);
    }
  };

  const otherIds = () => [
    workspaceB,
    ...Object.entries(other)
      .filter(([k]) => k !== "invitationToken")
      .map(([, v]) => v),
  ];

  it.each(ROLES)(
    "walks every /api/v1 route as a workspace's %s: the other workspace's records are 404 and unchanged",
    async (role) => {
      const walker = members.get(role) as Member;
      const before = await snapshotB();
      let walked = 0;
      let skipped = 0;
      for (const route of routes) {
        const walk = walkOf(route);
        const write = route.method !== "GET";
        const where = `${route.method} ${walk.path} as ${role}`;
        if (!walk.about) {
          // the caller's own workspace: reads show nothing of the other; a viewer's writes are refused
          if (write && role !== "viewer") {
            skipped += 1;
            continue;
          }
          const response = await call(walker.token, route.method, walk.path, write ? {} : undefined);
          if (write) expect({ where, status: response.status }).toEqual({ where, status: 403 });
          else expect({ where, ok: response.status < 500 }).toEqual({ where, ok: true });
          const text = JSON.stringify(response.body);
          for (const id of otherIds()) expect({ where, leaks: text.includes(id) }).toEqual({ where, leaks: false });
          walked += 1;
          continue;
        }
        const expected = role === "viewer" && write && !walk.viewerMayWrite ? 403 : (walk.expect ?? 404);
        const response =
          walk.csv === undefined
            ? await call(walker.token, route.method, walk.path, walk.payload)
            : await api(base, walk.path, {
                method: route.method,
                rawBody: walk.csv,
                headers: { authorization: `Bearer ${walker.token}`, "content-type": "text/csv" },
              });
        expect({ where, status: response.status }).toEqual({ where, status: expected });
        expect({ where, code: body(response).error?.code }).toEqual({
          where,
          code: expected === 404 ? "not_found" : "forbidden",
        });
        walked += 1;
      }
      // every mounted /api/v1 route (70 when this was written); a member's own-workspace writes (8) are not about the other
      expect(routes.length).toBeGreaterThanOrEqual(70);
      expect({ walked, skipped }).toEqual({
        walked: routes.length - skipped,
        skipped: role === "viewer" ? 0 : 8,
      });
      expect(await snapshotB()).toBe(before);
    },
    120_000,
  );

  it("documents the viewer's 403 `forbidden` on every /api/v1 write a viewer is refused", async () => {
    const reference = await api(base, "/openapi.json");
    expect(reference.status).toBe(200);
    const paths = (reference.body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> })
      .paths;
    const writes = routes.filter((route) => route.method !== "GET" && route.method !== "HEAD");
    const documented = writes.map((route) => {
      const operation = paths[route.path.replace(/:([A-Za-z_]+)/g, "{$1}")]?.[route.method.toLowerCase()];
      const viewerMayWrite = walkOf(route).viewerMayWrite === true;
      return {
        route: `${route.method} ${route.path}`,
        refusesViewers: !viewerMayWrite,
        has403: "403" in (operation?.responses ?? {}),
      };
    });
    // the viewer walk above meets 403 on each of these; the reference says so
    expect(documented.filter((d) => d.refusesViewers && !d.has403)).toEqual([]);
    expect(documented.filter((d) => d.refusesViewers).length).toBeGreaterThanOrEqual(25);
  });

  it("lets the workspace's owners and admins read its audit log, and refuses its members and viewers", async () => {
    for (const role of ROLES) {
      const reader = members.get(role) as Member;
      const response = await call(reader.token, "GET", `/api/v1/workspaces/${workspaceA}/audit-log`);
      const expected = role === "owner" || role === "admin" ? 200 : 403;
      expect({ role, status: response.status }).toEqual({ role, status: expected });
    }
    const owner = members.get("owner") as Member;
    const joined = body(
      await call(owner.token, "GET", `/api/v1/workspaces/${workspaceA}/audit-log?action=member.joined&limit=100`),
    ).data as { actor: { user_id: string } }[];
    // each invited member's joining, by themselves
    const invited = ROLES.filter((role) => role !== "owner").map((role) => (members.get(role) as Member).userId);
    expect(joined.map((entry) => entry.actor.user_id)).toEqual(expect.arrayContaining(invited));
  });

  it("refuses a viewer's write in Form B as well, naming the role", async () => {
    const viewer = members.get("viewer") as Member;
    const refused = await call(viewer.token, "POST", "/api/v1/sites", { url: "https://other.example" }, "B");
    expect(refused.status).toBe(403);
    expect(body(refused)).toMatchObject({ code: "FORBIDDEN", error: expect.stringMatching(/viewer/) });
    const switched = await call(
      viewer.token,
      "POST",
      `/api/v1/workspaces/${await personalOf(viewer.userId)}/switch`,
      undefined,
      "B",
    );
    expect(switched.status).toBe(200);
    expect(body(switched)).toMatchObject({ success: true, data: { current: true, role: "owner" } });
    // and back
    expect((await call(viewer.token, "POST", `/api/v1/workspaces/${workspaceA}/switch`)).status).toBe(200);
  });

  it("lists the workspace's members and the user's workspaces with their roles", async () => {
    const owner = members.get("owner") as Member;
    const listed = await call(owner.token, "GET", `/api/v1/workspaces/${workspaceA}/members`);
    expect(listed.status).toBe(200);
    const roles = Object.fromEntries(
      (body(listed).data as { email: string; role: string }[]).map(({ email, role }) => [email, role]),
    );
    for (const role of ROLES) expect(roles[(members.get(role) as Member).email]).toBe(role);
    const mine = await call((members.get("member") as Member).token, "GET", "/api/v1/workspaces");
    const views = body(mine).data as { id: string; role: string; current: boolean; personal: boolean }[];
    expect(views).toHaveLength(2);
    expect(views.find((view) => view.id === workspaceA)).toMatchObject({
      role: "member",
      current: true,
      personal: true,
    });
    expect(views.find((view) => view.id !== workspaceA)).toMatchObject({
      role: "owner",
      current: false,
      personal: true,
    });
  });

  it("keeps the rules of roles: managers manage, only owners make owners, the last owner stays", async () => {
    const owner = members.get("owner") as Member;
    const admin = members.get("admin") as Member;
    const member = members.get("member") as Member;
    const path = `/api/v1/workspaces/${workspaceA}`;
    expect((await call(member.token, "POST", `${path}/invitations`, { email: freshEmail() })).status).toBe(403);
    expect((await call(member.token, "PATCH", path, { name: "Mine" })).status).toBe(403);
    expect(
      (await call(admin.token, "POST", `${path}/invitations`, { email: freshEmail(), role: "owner" })).status,
    ).toBe(403);
    expect((await call(admin.token, "PATCH", `${path}/members/${owner.userId}`, { role: "member" })).status).toBe(403);
    expect((await call(admin.token, "PATCH", `${path}/members/${member.userId}`, { role: "owner" })).status).toBe(403);
    const renamed = await call(admin.token, "PATCH", path, { name: "Agency" });
    expect(renamed.status).toBe(200);
    expect(body(renamed).data.name).toBe("Agency");
    // the last owner, who is the personal workspace's user, stays its owner
    const demoted = await call(owner.token, "PATCH", `${path}/members/${owner.userId}`, { role: "admin" });
    expect(demoted.status).toBe(409);
    const left = await call(owner.token, "DELETE", `${path}/members/${owner.userId}`);
    expect(left.status).toBe(409);
    // an owner makes and unmakes owners
    const promoted = await call(owner.token, "PATCH", `${path}/members/${admin.userId}`, { role: "owner" });
    expect(promoted.status).toBe(200);
    expect(body(promoted).data).toMatchObject({ user_id: admin.userId, role: "owner" });
    expect((await call(owner.token, "PATCH", `${path}/members/${admin.userId}`, { role: "admin" })).status).toBe(200);
    // the member's role changes at their next request
    expect((await call(owner.token, "PATCH", `${path}/members/${member.userId}`, { role: "viewer" })).status).toBe(200);
    expect((await call(member.token, "POST", "/api/v1/sites", { url: "https://example.com" })).status).toBe(403);
    expect((await call(owner.token, "PATCH", `${path}/members/${member.userId}`, { role: "member" })).status).toBe(200);
    const made = await call(member.token, "POST", "/api/v1/sites", { url: "https://example.com" });
    expect(made.status).toBe(201);
    // made in the workspace acting, by the member
    const site = await stack.db.site.findUniqueOrThrow({ where: { id: body(made).data.id } });
    expect(site).toMatchObject({ workspaceId: workspaceA, userId: member.userId });
  });

  it("keeps invitations one-time: for their email only, once, until revoked", async () => {
    const owner = members.get("owner") as Member;
    const stranger = await signUp("stranger");
    const invitee = await signUp("invitee");
    const path = `/api/v1/workspaces/${workspaceA}/invitations`;
    const invited = await call(owner.token, "POST", path, { email: invitee.email, role: "viewer" });
    const link: string = body(invited).data.link;
    const token = link.slice(link.indexOf("#token=") + 7);
    expect(await stack.db.workspaceInvitation.findFirst({ where: { tokenHash: token } })).toBeNull();
    const foreign = await call(stranger.token, "POST", "/api/v1/workspaces/invitations/accept", { token });
    expect(foreign.status).toBe(403);
    const listed = await call(owner.token, "GET", path);
    const open = (body(listed).data as { id: string; accepted_at: string | null }[]).find(
      ({ id }) => id === body(invited).data.id,
    );
    expect(open).toMatchObject({ accepted_at: null, revoked_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect((await call(invitee.token, "POST", "/api/v1/workspaces/invitations/accept", { token })).status).toBe(200);
    expect((await call(invitee.token, "POST", "/api/v1/workspaces/invitations/accept", { token })).status).toBe(404);
    expect((await call(owner.token, "POST", path, { email: invitee.email })).status).toBe(409);

    const again = await call(owner.token, "POST", path, { email: stranger.email });
    const revoked = await call(owner.token, "DELETE", `${path}/${body(again).data.id}`);
    expect(revoked.status).toBe(200);
    expect(body(revoked).data.revoked_at).not.toBeNull();
    const late: string = body(again).data.link;
    const lateToken = late.slice(late.indexOf("#token=") + 7);
    expect(
      (await call(stranger.token, "POST", "/api/v1/workspaces/invitations/accept", { token: lateToken })).status,
    ).toBe(404);
  });

  it("ends a removed member's sessions in the workspace", async () => {
    const owner = members.get("owner") as Member;
    const leaving = await signUp("leaving");
    await join(owner, leaving, workspaceA, "member");
    expect((await call(leaving.token, "GET", "/api/v1/sites")).status).toBe(200);
    const removed = await call(owner.token, "DELETE", `/api/v1/workspaces/${workspaceA}/members/${leaving.userId}`);
    expect(removed.status).toBe(200);
    expect(body(removed).data).toEqual({ id: leaving.userId, deleted: true });
    const refused = await call(leaving.token, "GET", "/api/v1/sites");
    expect(refused.status).toBe(401);
    const sessions = await stack.db.session.findMany({ where: { userId: leaving.userId, workspaceId: workspaceA } });
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) expect(session.revokedAt).not.toBeNull();
    // signed in again, they act in their personal workspace; the other is 404 to them
    const again = new Browser(base);
    expect((await again.signIn(leaving.email, PASSWORD)).status).toBe(200);
    const token = await again.token();
    expect((await call(token, "GET", "/api/v1/sites")).status).toBe(200);
    expect((await call(token, "GET", `/api/v1/workspaces/${workspaceA}`)).status).toBe(404);
    expect((await call(token, "POST", `/api/v1/workspaces/${workspaceA}/switch`)).status).toBe(404);
  });

  it("revokes the API keys a removed member made in the workspace, and no one else's", async () => {
    const owner = members.get("owner") as Member;
    const leaving = await signUp("key-maker");
    const makeKey = async (token: string, name: string) => {
      const made = await call(token, "POST", "/api/v1/keys", { name });
      expect(made.status).toBe(201);
      return body(made).data as { id: string; key: string };
    };
    const ownKey = await makeKey(leaving.token, "personal");
    await join(owner, leaving, workspaceA, "member");
    const madeHere = await makeKey(leaving.token, "client integration");
    const ownersKey = await makeKey(owner.token, "owner's");
    const sites = (key: string) => api(base, "/api/v1/sites", { headers: { "x-api-key": key } });
    for (const key of [ownKey, madeHere, ownersKey]) expect((await sites(key.key)).status).toBe(200);

    const removed = await call(owner.token, "DELETE", `/api/v1/workspaces/${workspaceA}/members/${leaving.userId}`);
    expect(removed.status).toBe(200);
    // at once, on the gateway that removed them
    const refused = await sites(madeHere.key);
    expect(refused.status).toBe(401);
    const row = await stack.db.apiKey.findUniqueOrThrow({ where: { id: madeHere.id } });
    expect(row.revokedAt).not.toBeNull();
    expect(row.workspaceId).toBe(workspaceA);
    // the workspace's other keys and the member's keys elsewhere work on
    expect((await sites(ownersKey.key)).status).toBe(200);
    expect((await sites(ownKey.key)).status).toBe(200);
    const listed = await call(owner.token, "GET", "/api/v1/keys");
    const ids = (body(listed).data as Array<{ id: string }>).map((key) => key.id);
    expect(ids).toContain(ownersKey.id);
    expect(ids).not.toContain(madeHere.id);
  });
});
