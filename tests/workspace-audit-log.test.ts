import type { IncomingMessage, ServerResponse } from "node:http";
import { body } from "./support/accounts-api";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, freshEmail, PASSWORD } from "./support/sessions";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The workspace's audit log: every change of members, keys, clients, sites and schedules makes
 * exactly one entry naming its actor (member or key) and request, in the change's transaction;
 * no entry holds a secret; owners and admins read it by cursor, filtered; members, viewers and
 * keys cannot; and the database refuses to change or delete an entry.
 */

type Member = { browser: Browser; token: string; userId: string; email: string };
type Entry = {
  id: string;
  at: string;
  action: string;
  actor: {
    type: string;
    user_id: string | null;
    email: string | null;
    key_id: string | null;
    key_prefix: string | null;
  };
  target: { type: string; id: string };
  request_id: string | null;
  ip: string | null;
  changes: Record<string, unknown>;
};

const SLACK_PATH = "/services/T0AUDIT/B0AUDIT/s3cretslacktokenvalue";

describe("workspace audit log", () => {
  let database: TestDatabase;
  let stack: Stack;
  let slack: FixtureServer;
  let base: string;
  let owner: Member;
  let workspaceId: string;
  /** every secret the walk handles: none may be in any entry */
  const secrets: string[] = [PASSWORD, SLACK_PATH];
  let requests = 0;

  const call = (token: string, method: string, path: string, payload?: unknown, form: "A" | "B" = "A") => {
    requests += 1;
    return api(base, path, {
      method,
      ...(payload === undefined ? {} : { body: payload }),
      headers: { authorization: `Bearer ${token}`, "x-response-form": form, "x-request-id": `audit-log-${requests}` },
    });
  };

  const signUp = async (label: string): Promise<Member> => {
    const browser = new Browser(base);
    const email = freshEmail(label);
    expect((await browser.signUp(email, PASSWORD)).status).toBe(201);
    const token = await browser.token();
    const userId = (await stack.db.user.findUniqueOrThrow({ where: { email } })).id;
    return { browser, token, userId, email };
  };

  /**
   * Runs `change` and expects exactly one new entry: `action` on `target`, by `actor` (a member's
   * user id, or a key's id), carrying the request's id.
   */
  const expectOne = async (
    action: string,
    actor: { userId: string } | { keyId: string },
    change: () => Promise<{ status: number; headers: Headers }>,
  ) => {
    const known = new Set(
      (await stack.db.auditLogEntry.findMany({ where: { workspaceId }, select: { id: true } })).map((row) => row.id),
    );
    const response = await change();
    expect({ action, status: response.status < 300 }).toEqual({ action, status: true });
    const fresh = (await stack.db.auditLogEntry.findMany({ where: { workspaceId } })).filter(
      (entry) => !known.has(entry.id),
    );
    expect({ action, entries: fresh.map((entry) => entry.action) }).toEqual({ action, entries: [action] });
    const [entry] = fresh;
    if ("userId" in actor) expect(entry).toMatchObject({ actorUserId: actor.userId, actorKeyId: null });
    else expect(entry).toMatchObject({ actorKeyId: actor.keyId, actorUserId: null, actorEmail: null });
    expect(entry?.requestId).toBe(response.headers.get("x-request-id"));
    return entry;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    slack = await startFixtureServer({}, (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200).end("ok");
    });
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["example.com", "other.example", slack.hostPort],
      worker: false,
      env: { SIGN_UP: "open", RATE_LIMIT_FREE: "100000", RATE_LIMIT_SESSION_READS: "100000" },
    });
    base = stack.gateway.url;
    owner = await signUp("log-owner");
    workspaceId = (await stack.db.workspace.findUniqueOrThrow({ where: { personalUserId: owner.userId } })).id;
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await slack?.close();
    await database?.drop();
    await stopContainers();
  });

  const members: Record<string, Member> = {};

  it("records each change once, with its actor, request and changed fields", async () => {
    const ws = `/api/v1/workspaces/${workspaceId}`;
    const me = { userId: owner.userId };
    const renamed = await expectOne("workspace.renamed", me, () => call(owner.token, "PATCH", ws, { name: "Agency" }));
    expect(renamed?.changes).toMatchObject({ name: { to: "Agency" } });
    expect(renamed).toMatchObject({ actorEmail: owner.email, targetType: "workspace", targetId: workspaceId });

    for (const role of ["admin", "member", "viewer", "leaver", "removed"] as const) {
      const invitee = await signUp(role);
      members[role] = invitee;
      const invitedRole = role === "leaver" || role === "removed" ? "member" : role;
      let link = "";
      const invited = await expectOne("member.invited", me, async () => {
        const response = await call(owner.token, "POST", `${ws}/invitations`, {
          email: invitee.email,
          role: invitedRole,
        });
        link = body(response).data.link;
        return response;
      });
      expect(invited?.changes).toEqual({ email: invitee.email, role: invitedRole });
      const token = link.slice(link.indexOf("#token=") + "#token=".length);
      secrets.push(link, token);
      const joined = await expectOne("member.joined", { userId: invitee.userId }, () =>
        call(invitee.token, "POST", "/api/v1/workspaces/invitations/accept", { token }),
      );
      expect(joined).toMatchObject({ targetType: "member", targetId: invitee.userId, actorEmail: invitee.email });
      expect((await call(invitee.token, "POST", `${ws}/switch`)).status).toBe(200);
    }
    const stray = await call(owner.token, "POST", `${ws}/invitations`, { email: freshEmail("stray") });
    secrets.push(body(stray).data.link);
    await expectOne("member.invitation_revoked", me, () =>
      call(owner.token, "DELETE", `${ws}/invitations/${body(stray).data.id}`),
    );

    const admin = members.admin as Member;
    const promoted = await expectOne("member.role_changed", { userId: admin.userId }, () =>
      call(admin.token, "PATCH", `${ws}/members/${(members.member as Member).userId}`, { role: "viewer" }),
    );
    expect(promoted?.changes).toMatchObject({ role: { from: "member", to: "viewer" } });
    expect(
      (await call(owner.token, "PATCH", `${ws}/members/${(members.member as Member).userId}`, { role: "member" }))
        .status,
    ).toBe(200);

    // keys: made and revoked by a member's session; the key then acts as itself
    const removedMember = members.removed as Member;
    let removedKeyId = "";
    await expectOne("key.created", { userId: removedMember.userId }, async () => {
      const response = await call(removedMember.token, "POST", "/api/v1/keys", { name: "leaves with them" });
      removedKeyId = body(response).data.id;
      secrets.push(body(response).data.key);
      return response;
    });
    let keyId = "";
    let key = "";
    const made = await expectOne("key.created", me, async () => {
      const response = await call(owner.token, "POST", "/api/v1/keys", { name: "integration" });
      ({ id: keyId, key } = body(response).data);
      return response;
    });
    secrets.push(key);
    const stored = await stack.db.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    secrets.push(stored.hash);
    expect(made?.changes).toEqual({ name: "integration", prefix: stored.prefix, client_id: null, read_only: false });
    const byKey = { keyId };

    // clients and sites by the key: the entries name the key and its prefix
    let clientId = "";
    const client = await expectOne("client.created", byKey, async () => {
      const response = await call(key, "POST", "/api/v1/clients", { name: "Acme", scan_quota: 10 });
      clientId = body(response).data.id;
      return response;
    });
    expect(client).toMatchObject({ actorKeyPrefix: stored.prefix, targetType: "client", targetId: clientId });
    expect(client?.ip).toBeTruthy();
    const changed = await expectOne("client.changed", byKey, () =>
      call(key, "PATCH", `/api/v1/clients/${clientId}`, { name: "Acme Ltd", audit_quota: 2 }),
    );
    expect(changed?.changes).toEqual({
      name: { from: "Acme", to: "Acme Ltd" },
      audit_quota: { from: null, to: 2 },
    });
    let siteId = "";
    const site = await expectOne("site.created", byKey, async () => {
      const response = await call(key, "POST", "/api/v1/sites", { url: "https://example.com/any" });
      siteId = body(response).data.id;
      return response;
    });
    expect(site?.changes).toEqual({ url: "https://example.com", name: "example.com" });
    await expectOne("site.renamed", me, () =>
      call(owner.token, "PATCH", `/api/v1/sites/${siteId}`, { name: "Example" }),
    );
    const assigned = await expectOne("site.assigned", byKey, () =>
      call(key, "PATCH", `/api/v1/sites/${siteId}`, { client_id: clientId }),
    );
    expect(assigned?.changes).toEqual({ client_id: { from: null, to: clientId } });
    // the same site again, unchanged: nothing happened, nothing is recorded
    const before = await stack.db.auditLogEntry.count({ where: { workspaceId } });
    expect((await call(key, "POST", "/api/v1/sites", { url: "https://example.com" })).status).toBe(200);
    expect((await call(key, "PATCH", `/api/v1/sites/${siteId}`, { client_id: clientId })).status).toBe(200);
    expect(await stack.db.auditLogEntry.count({ where: { workspaceId } })).toBe(before);

    // schedules: where alerts go is recorded as whether they go, never the URL
    const schedule = await expectOne("schedule.created", me, () =>
      call(owner.token, "POST", `/api/v1/sites/${siteId}/schedule`, {
        frequency: "weekly",
        alert_slack_url: slack.url(SLACK_PATH),
      }),
    );
    expect(schedule?.changes).toMatchObject({ site_id: siteId, frequency: "weekly", alerts_to_slack: true });
    const rescheduled = await expectOne("schedule.changed", byKey, () =>
      call(key, "POST", `/api/v1/sites/${siteId}/schedule`, {
        frequency: "daily",
        alert_slack_url: slack.url(SLACK_PATH),
      }),
    );
    expect(rescheduled?.changes).toEqual({ site_id: siteId, frequency: { from: "weekly", to: "daily" } });
    await expectOne("schedule.deleted", byKey, () => call(key, "DELETE", `/api/v1/sites/${siteId}/schedule`));

    // site credentials are secrets: setting them is not an audited change and stores nothing in the log
    const credentials = await call(key, "PUT", `/api/v1/sites/${siteId}/credentials`, {
      headers: { Authorization: "Bearer site-credential-s3cret" },
    });
    secrets.push("site-credential-s3cret");
    expect(credentials.status).toBeLessThan(500);

    await expectOne("site.deleted", byKey, () => call(key, "DELETE", `/api/v1/sites/${siteId}`));
    await expectOne("client.deleted", me, () => call(owner.token, "DELETE", `/api/v1/clients/${clientId}`));
    await expectOne("key.revoked", me, () => call(owner.token, "DELETE", `/api/v1/keys/${keyId}`));

    const removed = await expectOne("member.removed", { userId: admin.userId }, () =>
      call(admin.token, "DELETE", `${ws}/members/${removedMember.userId}`),
    );
    // their key is revoked with them, and the entry says which
    expect(removed?.changes).toEqual({ email: removedMember.email, role: "member", keys_revoked: [removedKeyId] });
    const leaver = members.leaver as Member;
    await expectOne("member.left", { userId: leaver.userId }, () =>
      call(leaver.token, "DELETE", `${ws}/members/${leaver.userId}`),
    );
  }, 120_000);

  it("holds no secret in any entry", async () => {
    const entries = await stack.db.auditLogEntry.findMany({ where: { workspaceId } });
    expect(entries.length).toBeGreaterThanOrEqual(25);
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect({ secret, stored: text.includes(secret) }).toEqual({ secret, stored: false });
  });

  it("is read by owners and admins, newest first, by cursor, filtered by action and actor", async () => {
    const path = `/api/v1/workspaces/${workspaceId}/audit-log`;
    const all = await stack.db.auditLogEntry.findMany({
      where: { workspaceId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "?limit=7" : `?limit=7&cursor=${cursor}`;
      const response = await call(owner.token, "GET", `${path}${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const page = body(response);
      expect(page.meta.limit).toBe(7);
      seen.push(...(page.data as Entry[]).map((entry) => entry.id));
      cursor = page.meta.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.map((entry) => entry.id));

    const admin = members.admin as Member;
    const clients = body(await call(admin.token, "GET", `${path}?action=client.created`, undefined, "B"));
    expect(clients.success).toBe(true);
    expect(clients.meta).toEqual({ limit: 20, next_cursor: null });
    const [created] = clients.data as Entry[];
    expect(clients.data).toHaveLength(1);
    expect(created).toMatchObject({
      action: "client.created",
      actor: { type: "key", user_id: null, email: null },
      target: { type: "client" },
      changes: { name: "Acme", scan_quota: 10, audit_quota: null },
    });
    const keyId = created?.actor.key_id as string;
    const byKey = body(await call(owner.token, "GET", `${path}?actor=${keyId}&limit=100`)).data as Entry[];
    expect(byKey.length).toBeGreaterThanOrEqual(6);
    expect(byKey.every((entry) => entry.actor.key_id === keyId)).toBe(true);
    const byAdmin = body(await call(owner.token, "GET", `${path}?actor=${admin.userId}`)).data as Entry[];
    expect(byAdmin.map((entry) => entry.action).sort()).toEqual([
      "member.joined",
      "member.removed",
      "member.role_changed",
    ]);
    expect(byAdmin.every((entry) => entry.actor.email === admin.email)).toBe(true);

    for (const [query, status] of [
      ["?action=nothing", 400],
      ["?actor=me", 400],
      ["?limit=101", 400],
      ["?cursor=bm90LWEtY3Vyc29y", 400],
    ] as const) {
      const refused = await call(owner.token, "GET", `${path}${query}`, undefined, "B");
      expect({ query, status: refused.status, code: body(refused).code }).toEqual({
        query,
        status,
        code: "VALIDATION_ERROR",
      });
    }
  });

  it("is refused to members, viewers and API keys, and another workspace's is 404", async () => {
    const path = `/api/v1/workspaces/${workspaceId}/audit-log`;
    for (const role of ["member", "viewer"] as const) {
      for (const form of ["A", "B"] as const) {
        const refused = await call((members[role] as Member).token, "GET", path, undefined, form);
        expect({ role, form, status: refused.status }).toEqual({ role, form, status: 403 });
        if (form === "A")
          expect(body(refused).error).toMatchObject({ code: "forbidden", message: expect.stringContaining(role) });
        else expect(body(refused).code).toBe("FORBIDDEN");
      }
    }
    const key = body(await call(owner.token, "POST", "/api/v1/keys", { name: "reader" })).data.key as string;
    expect((await call(key, "GET", path)).status).toBe(401);
    const stranger = await signUp("stranger");
    expect((await call(stranger.token, "GET", path)).status).toBe(404);
    // the one who left reads nothing of it either, once signed in again (their session there ended)
    const leaver = members.leaver as Member;
    expect((await call(leaver.token, "GET", path)).status).toBe(401);
    expect((await leaver.browser.signIn(leaver.email, PASSWORD)).status).toBe(200);
    expect((await call(await leaver.browser.token(), "GET", path)).status).toBe(404);
  });

  it("cannot be changed or deleted, by the app's client or by SQL", async () => {
    const entry = await stack.db.auditLogEntry.findFirstOrThrow({ where: { workspaceId } });
    await expect(
      stack.db.auditLogEntry.update({ where: { id: entry.id }, data: { action: "site.deleted" } }),
    ).rejects.toThrow(/not changed or deleted/);
    await expect(stack.db.auditLogEntry.delete({ where: { id: entry.id } })).rejects.toThrow(/not changed or deleted/);
    await expect(
      stack.db.$executeRaw`UPDATE "audit_log_entries" SET "changes" = '{}' WHERE "workspace_id" = ${workspaceId}::uuid`,
    ).rejects.toThrow(/not changed or deleted/);
    await expect(
      stack.db.$executeRaw`DELETE FROM "audit_log_entries" WHERE "workspace_id" = ${workspaceId}::uuid`,
    ).rejects.toThrow(/not changed or deleted/);
    expect(await stack.db.auditLogEntry.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);
  });
});
