import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { createAccount } from "./support/accounts";
import { comparedPage as page } from "./support/audit-site";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A schedule that alerts by mail and in Slack, on a deployment with no WEBHOOK_SECRET: a
 * regression planted between two audits sends exactly one mail (to a local SMTP server) and one
 * Slack payload (to a local server speaking Slack's incoming-webhook wire format: a JSON POST
 * answered 200 "ok"); an audit that finds nothing newly wrong sends neither. The SMTP server
 * refuses the first mail for now (451), so the mail is retried as webhook alerts are.
 */

type Json = Record<string, any>;
type Mail = { from: string; to: string[]; user: string | undefined; raw: string };

const SLACK_PATH = "/services/T0ALERTS/B0ALERTS/abcdefghijklmnopqrstuvwx";
const DASHBOARD_URL = "https://scan.example/app";

describe("alerts by mail and Slack", () => {
  let site: FixtureServer;
  let slack: FixtureServer;
  let smtp: SMTPServer;
  let database: TestDatabase;
  let stack: Stack;
  let broken = false;
  let refusals = 0;
  const mails: Mail[] = [];
  const posts: Array<{ contentType: string | undefined; path: string; body: string }> = [];

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
    slack = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        posts.push({
          contentType: req.headers["content-type"],
          path: req.url ?? "",
          body: Buffer.concat(chunks).toString("utf8"),
        });
        res.writeHead(200, { "content-type": "text/html" }).end("ok");
      });
    });
    smtp = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, done) =>
        auth.username === "alerts" && auth.password === "smtp-pass-0123"
          ? done(null, { user: auth.username })
          : done(new Error("bad login")),
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          // the first mail meets a passing refusal (451): the delivery retries it, as webhooks retry
          if (refusals === 0) {
            refusals += 1;
            return done(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          }
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          done();
        });
      },
    });
    await new Promise<void>((ready) => smtp.listen(0, "127.0.0.1", ready));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, slack.hostPort],
      env: {
        RATE_LIMIT_AGENCY: "100000",
        SMTP_URL: `smtp://alerts:smtp-pass-0123@127.0.0.1:${smtpPort}`,
        ALERT_FROM: "Site alerts <alerts@agency.example>",
        DASHBOARD_URL,
        WEBHOOK_BACKOFF_MS: "200",
      },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await slack?.close();
    await new Promise<void>((closed) => (smtp ? smtp.close(() => closed()) : closed()));
    await database?.drop();
    await stopContainers();
  });

  it("mails once and posts to Slack once for a planted regression, and neither when nothing got worse", async () => {
    const { key } = await createAccount(stack.db, "agency");
    const headers = { "x-api-key": key };
    const siteId = (
      (await api(stack.gateway.url, "/api/v1/sites", { body: { url: site.url("/") }, headers })).body as Json
    ).data.id as string;

    // a signed webhook needs WEBHOOK_SECRET, which this deployment lacks: the refusal says so
    const unsigned = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: { frequency: "weekly", alert_url: slack.url("/hook") },
    });
    expect(unsigned.status).toBe(400);
    expect((unsigned.body as Json).error.message).toMatch(/alert_url .*WEBHOOK_SECRET/);
    expect((unsigned.body as Json).error.hint).toMatch(/operator to set WEBHOOK_SECRET/);

    // a Slack URL passes the address policy like every URL
    const privateSlack = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: { frequency: "weekly", alert_slack_url: "http://10.0.0.1/services/T/B/x" },
    });
    expect(privateSlack.status).toBe(400);
    expect((privateSlack.body as Json).error.message).toMatch(/^alert_slack_url is not allowed/);
    const badMail = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: { frequency: "weekly", alert_emails: ["not an address"] },
    });
    expect(badMail.status).toBe(400);
    expect(JSON.stringify(badMail.body)).toContain("alert_emails");

    const slackUrl = slack.url(SLACK_PATH);
    const schedule = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: {
        frequency: "weekly",
        mode: "quick",
        alert_emails: ["seo@client.example", "SEO@client.example", "lead@agency.example"],
        alert_slack_url: slackUrl,
      },
    });
    expect(schedule.status).toBe(201);
    const view = (schedule.body as Json).data;
    expect(view).toMatchObject({ alert_url: null, alert_emails: ["SEO@client.example", "lead@agency.example"] });
    // the Slack URL is a secret: shown masked, in both envelope forms
    expect(view.alert_slack_url).toBe(`${slack.url("")}/…uvwx`);
    expect(JSON.stringify(schedule.body)).not.toContain("abcdefghijklmnop");
    const formB = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers: { ...headers, "x-response-form": "B" },
    });
    expect(formB.status).toBe(200);
    expect(JSON.stringify(formB.body)).toContain(`${slack.url("")}/…uvwx`);
    expect(JSON.stringify(formB.body)).not.toContain("abcdefghijklmnop");
    // saving the form again with the masked value keeps the stored URL
    const again = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: {
        frequency: "weekly",
        mode: "quick",
        alert_emails: view.alert_emails,
        alert_slack_url: view.alert_slack_url,
      },
    });
    expect(again.status).toBe(200);
    const edited = await api(stack.gateway.url, `/api/v1/sites/${siteId}/schedule`, {
      headers,
      body: { frequency: "weekly", mode: "quick", alert_slack_url: `${view.alert_slack_url}x` },
    });
    expect(edited.status).toBe(400);
    expect((edited.body as Json).error.message).toBe(
      "alert_slack_url is a masked URL that does not match the stored one",
    );
    expect((await stack.db.auditSchedule.findUniqueOrThrow({ where: { siteId } })).alertSlackUrl).toBe(slackUrl);

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
    expect(await stack.db.auditAlert.count()).toBe(0);
    broken = true;
    const worse = await audit();
    await eventually(async () => mails.length >= 1 && posts.length >= 1, 30_000, "the mail and the Slack post");

    const [mail] = mails;
    expect(mail?.user).toBe("alerts");
    expect(mail?.from).toBe("alerts@agency.example");
    expect(mail?.to.sort()).toEqual(["SEO@client.example", "lead@agency.example"].sort());
    const host = site.hostPort;
    expect(mail?.raw).toMatch(new RegExp(`Subject: ${host.replace(/\./g, "\\.")} got worse`));
    const link = `${DASHBOARD_URL}/sites/${siteId}?audit=${worse}`;
    const text = (mail?.raw ?? "").replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(text).toContain("Internal links lead to pages that answer (site check broken-internal-links)");
    expect(text).toContain(`Open the audit: ${link}`);

    const [post] = posts;
    expect(post?.path).toBe(SLACK_PATH);
    expect(post?.contentType).toBe("application/json");
    const payload = JSON.parse(post?.body ?? "{}") as { text: string; blocks: Array<Record<string, any>> };
    expect(payload.text).toContain(`${host} got worse`);
    expect(payload.text).toContain(link);
    expect(payload.blocks[0]).toMatchObject({ type: "header" });
    expect(JSON.stringify(payload.blocks)).toContain("broken-internal-links");

    // where alerts are listed, each channel's delivery shows, the Slack URL masked
    await eventually(
      async () => (await stack.db.auditAlert.count({ where: { state: "delivered" } })) === 2,
      10_000,
      "both alerts to be marked delivered",
    );
    const listed = await api(stack.gateway.url, `/api/v1/sites/${siteId}/alerts`, { headers });
    expect(listed.status).toBe(200);
    const deliveries = ((listed.body as Json).data as Json[]).map((alert) => alert.delivery);
    expect(deliveries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          channel: "email",
          state: "delivered",
          to: "SEO@client.example, lead@agency.example",
        }),
        expect.objectContaining({ channel: "slack", state: "delivered", to: `${slack.url("")}/…uvwx` }),
      ]),
    );
    expect(JSON.stringify(listed.body)).not.toContain("abcdefghijklmnop");

    // still broken, not worse: nothing more is sent
    const same = await audit();
    expect(await stack.db.auditAlert.count({ where: { auditId: same } })).toBe(0);
    expect(await stack.db.auditAlert.count()).toBe(2);
    expect(mails).toHaveLength(1);
    expect(refusals).toBe(1);
    expect(posts).toHaveLength(1);
  }, 240_000);
});
