import type { IncomingMessage, ServerResponse } from "node:http";
import { RegressionAlert } from "@scan/contract";
import { verifyWebhook } from "@scan/platform";
import { createAccount } from "./support/accounts";
import { comparedPage as page } from "./support/audit-site";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A regression planted between two audits sends exactly one signed webhook to the schedule's
 * alert URL, naming the check that passed before and fails now, and its pages; an audit that
 * finds nothing newly wrong sends none.
 */

const WEBHOOK_SECRET = "whsec_alerts_0123456789abcdef0123456789";

type Json = Record<string, any>;

describe("regression alerts", () => {
  let site: FixtureServer;
  let receiver: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let broken = false;
  const received: Array<{ headers: IncomingMessage["headers"]; raw: string }> = [];

  beforeAll(async () => {
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const send = (status: number, body: string) =>
        res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
      if (path === "/") return send(200, page("The home page of the compared site", ["/a", "/b"]));
      if (path === "/a") return send(200, page("The first inner page of the compared site", ["/"]));
      if (path === "/b")
        return broken ? send(404, "<title>gone</title>") : send(200, page("The second inner page of the site", ["/"]));
      return res.writeHead(404).end();
    });
    receiver = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, receiver.hostPort],
      env: { WEBHOOK_SECRET, RATE_LIMIT_AGENCY: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await receiver?.close();
    await database?.drop();
    await stopContainers();
  });

  it("sends one signed webhook for a planted regression, and none when nothing got worse", async () => {
    const { key } = await createAccount(stack.db, "agency");
    const headers = { "x-api-key": key };
    const siteId = (
      (await api(stack.gateway.url, "/api/v1/sites", { body: { url: site.url("/") }, headers })).body as Json
    ).data.id as string;
    const schedule = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: { frequency: "weekly", mode: "quick", alert_url: receiver.url("/alerts"), alert_drop: 5 },
    });
    expect(schedule.status).toBe(201);
    expect((schedule.body as Json).data).toMatchObject({ alert_url: receiver.url("/alerts"), alert_drop: 5 });
    const refused = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: { frequency: "weekly", alert_url: "http://10.0.0.1/hook" },
    });
    expect(refused.status).toBe(400);
    expect((refused.body as Json).error.message).toMatch(/^alert_url/);

    const audit = async () => {
      const started = await api(stack.gateway.url, `/api/v1/sites/${siteId}/audits`, {
        headers,
        body: { mode: "quick" },
      });
      const id = (started.body as Json).data.id as string;
      await eventually(
        async () => (await stack.db.audit.findUniqueOrThrow({ where: { id } })).status === "completed",
        60_000,
        "the audit to complete",
      );
      return id;
    };

    await audit();
    broken = true;
    const worse = await audit();
    await eventually(async () => received.length >= 1, 30_000, "the alert to arrive");
    const alert = received[0];
    const verdict = verifyWebhook(WEBHOOK_SECRET, String(alert?.headers["x-signature"]), alert?.raw ?? "");
    expect(verdict.valid).toBe(true);
    const body = RegressionAlert.parse(JSON.parse(alert?.raw ?? ""));
    expect(alert?.headers["x-webhook-id"]).toBe(body.alert_id);
    expect(body).toMatchObject({ event: "site.regressed", site_id: siteId, audit_id: worse, mode: "quick" });
    const failing = body.reasons.find(
      (reason) => reason.kind === "check_failing" && reason.check === "broken-internal-links",
    );
    expect(failing).toMatchObject({ scope: "site", pages: expect.arrayContaining([site.url("/b"), site.url("/")]) });

    // still broken, not worse: no second alert
    const same = await audit();
    expect(await stack.db.auditAlert.count()).toBe(1);
    expect(await stack.db.auditAlert.findFirst({ where: { auditId: same } })).toBeNull();
    await eventually(
      async () => (await stack.db.auditAlert.findFirstOrThrow()).state === "delivered",
      10_000,
      "the alert to be marked delivered",
    );
    expect(received).toHaveLength(1);
  }, 180_000);
});
