import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { AUDIT_JOBS, reportMailJobId, SCAN_QUEUE, WEBHOOK_QUEUE } from "@scan/queue";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { ensureDashboardBuilt } from "../scripts/dashboard-build";
import { createAccount } from "./support/accounts";
import { comparedPage as page } from "./support/audit-site";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, startStack } from "./support/stack";

/**
 * A schedule's client report by mail: each audit the schedule starts mails the audit's PDF (the
 * one GET /api/v1/audits/:id/report?format=pdf serves, in the agency's name) to the schedule's
 * `report_emails`, regressed or not, under a subject of its own; no mail when the schedule has no
 * such addresses; and a report the worker cannot print (here: no dashboard build to print it
 * from) still goes, without the attachment, the log saying why. Mail arrives at a local SMTP
 * server; the PDF is read back with poppler's pdftotext.
 */

type Json = Record<string, any>;
type Mail = { to: string[]; raw: string };

const AGENCY = "Harbourlight Digital";
const DASHBOARD_URL = "https://scan.example/app";

/** one MIME part's headers and body, split on the message's boundaries */
const partsOf = (raw: string): Array<{ headers: string; body: string }> => {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const at = part.indexOf("\r\n\r\n");
      return { headers: part.slice(0, at), body: part.slice(at + 4) };
    });
};

const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1]?.trim();

/** the mail's plain text, quoted-printable undone */
const textOf = (raw: string) => {
  const part = partsOf(raw).find((p) => /content-type: text\/plain/i.test(p.headers)) ?? { headers: "", body: raw };
  return part.body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
};

const pdfOf = (raw: string): Buffer | null => {
  const part = partsOf(raw).find((p) => /content-type: application\/pdf/i.test(p.headers));
  return part ? Buffer.from(part.body.replace(/\s+/g, ""), "base64") : null;
};

const pdfText = (pdf: Buffer): string => {
  const dir = mkdtempSync(join(tmpdir(), "report-mail-"));
  try {
    const file = join(dir, "report.pdf");
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe("client reports mailed for a schedule", () => {
  let site: FixtureServer;
  let smtp: SMTPServer;
  let smtpPort: number;
  let database: TestDatabase;
  let redisUrl: string;
  const mails: Mail[] = [];

  beforeAll(async () => {
    ensureDashboardBuilt();
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const send = (status: number, body: string) =>
        res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
      if (path === "/") return send(200, page("The home page of the reported site", ["/a"]));
      if (path === "/a") return send(200, page("The one inner page of the reported site", ["/"]));
      return res.writeHead(404).end();
    });
    smtp = new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      // a PDF of a few hundred KB, base64: well inside the default limits
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          mails.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          done();
        });
      },
    });
    await new Promise<void>((ready) => smtp.listen(0, "127.0.0.1", ready));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    database = await createTestDatabase();
    redisUrl = await testRedisUrl();
  }, 300_000);

  afterAll(async () => {
    await site?.close();
    await new Promise<void>((closed) => (smtp ? smtp.close(() => closed()) : closed()));
    await database?.drop();
    await stopContainers();
  });

  /** a stack on the local SMTP server, its log kept to read */
  const stackWith = async (env: Record<string, string>) => {
    const lines: Json[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, next) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        next();
      },
    });
    const stack = await startStack({
      databaseUrl: database.url,
      redisUrl,
      allowlist: [site.hostPort],
      log: pino({ level: "info" }, sink),
      env: {
        RATE_LIMIT_AGENCY: "100000",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        ALERT_FROM: "Site reports <reports@agency.example>",
        DASHBOARD_URL,
        WEBHOOK_BACKOFF_MS: "200",
        ...env,
      },
    });
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(SCAN_QUEUE, { connection, prefix: stack.prefix });
    const webhooks = new Queue(WEBHOOK_QUEUE, { connection, prefix: stack.prefix });
    const { key } = await createAccount(stack.db, "agency");
    const headers = { "x-api-key": key };
    const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
      api(stack.gateway.url, path, { ...init, headers });
    const siteId = ((await call("/api/v1/sites", { body: { url: site.url("/") } })).body as Json).data.id as string;

    const fired = new Set<string>();
    /** the schedule comes due now: its waiting job is promoted, and the audit it starts runs to its end */
    const fire = async () => {
      const before = await stack.db.audit.count({ where: { siteId } });
      const due = (await queue.getDelayed()).find(
        (job) => job.name === AUDIT_JOBS.scheduled && !fired.has(job.id ?? ""),
      );
      if (due) {
        fired.add(due.id ?? "");
        await due.promote();
      } else {
        // a scheduler whose job ran early makes its next one under the same id: this firing is that job's
        await queue.add(AUDIT_JOBS.scheduled, { siteId }, { jobId: `firing-${before}` });
      }
      await eventually(
        async () => (await stack.db.audit.count({ where: { siteId, status: "completed" } })) === before + 1,
        90_000,
        "the scheduled audit to complete",
      );
      return (await stack.db.auditSchedule.findUniqueOrThrow({ where: { siteId } })).lastAuditId as string;
    };
    const close = async () => {
      await queue.close();
      await webhooks.close();
      connection.disconnect();
      await stack.close();
    };
    return { stack, call, siteId, fire, lines, webhooks, close };
  };

  it("mails each scheduled audit's PDF to report_emails, and nothing when the schedule has none", async () => {
    const { stack, call, siteId, fire, lines, webhooks, close } = await stackWith({});
    try {
      expect((await call("/api/v1/branding", { method: "PUT", body: { agency_name: AGENCY } })).status).toBe(200);

      const bad = await call(`/api/v1/sites/${siteId}/schedule`, {
        body: { frequency: "weekly", report_emails: ["client at example"] },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain("report_emails");

      // the setting off: the scheduled audit completes and nothing is mailed
      const off = await call(`/api/v1/sites/${siteId}/schedule`, { body: { frequency: "weekly", mode: "quick" } });
      expect(off.status).toBe(201);
      expect((off.body as Json).data.report_emails).toEqual([]);
      const quiet = await fire();
      // the job that would mail is queued, if at all, with the report step: that step is done
      await eventually(
        async () => lines.some((line) => line.msg === "audit completed" && line.auditId === quiet),
        10_000,
        "the report step's log",
      );
      expect(await webhooks.getJob(reportMailJobId(quiet))).toBeUndefined();
      expect(mails).toHaveLength(0);

      // on: the next scheduled audit mails its client report, one mail to both addresses
      const on = await call(`/api/v1/sites/${siteId}/schedule`, {
        body: {
          frequency: "weekly",
          mode: "quick",
          report_emails: ["owner@client.example", "OWNER@client.example", "cmo@client.example"],
        },
      });
      expect(on.status).toBe(200);
      expect((on.body as Json).data.report_emails).toEqual(["OWNER@client.example", "cmo@client.example"]);
      const reported = await fire();
      await eventually(async () => mails.length >= 1, 60_000, "the report mail");
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail?.to.sort()).toEqual(["OWNER@client.example", "cmo@client.example"].sort());
      const audit = await stack.db.audit.findUniqueOrThrow({ where: { id: reported } });
      const host = site.hostPort;
      // a delivery, not a warning: its subject is not an alert's "got worse"
      expect(subjectOf(mail?.raw ?? "")).toBe(`Client report: ${host}, grade ${audit.grade}`);
      const text = textOf(mail?.raw ?? "");
      expect(text).toContain("The client report is attached as a PDF.");
      expect(text).toContain(`Open the audit: ${DASHBOARD_URL}/sites/${siteId}?audit=${reported}`);
      const pdf = pdfOf(mail?.raw ?? "");
      expect(pdf?.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(partsOf(mail?.raw ?? "").find((p) => /application\/pdf/.test(p.headers))?.headers).toContain(
        `audit-${reported}-report.pdf`,
      );
      const printed = pdfText(pdf ?? Buffer.alloc(0));
      expect(printed).toContain(AGENCY);
      expect(printed).toMatch(new RegExp(`Grade\\s+${audit.grade}\\b`));
      expect(printed).toContain(`Site audit of ${site.url("/")}`);
      // no regression: no alert, the report went all the same
      expect(await stack.db.auditAlert.count()).toBe(0);
    } finally {
      await close();
    }
  }, 300_000);

  it("mails the report without its PDF when it cannot be printed, and logs why", async () => {
    const empty = mkdtempSync(join(tmpdir(), "no-dashboard-"));
    const { stack, call, siteId, fire, lines, close } = await stackWith({ DASHBOARD_DIR: empty });
    try {
      const schedule = await call(`/api/v1/sites/${siteId}/schedule`, {
        body: { frequency: "weekly", mode: "quick", report_emails: ["owner@client.example"] },
      });
      expect(schedule.status).toBe(201);
      const before = mails.length;
      const reported = await fire();
      await eventually(async () => mails.length > before, 60_000, "the report mail");
      const mail = mails.at(-1);
      const audit = await stack.db.audit.findUniqueOrThrow({ where: { id: reported } });
      expect(mail?.to).toEqual(["owner@client.example"]);
      expect(subjectOf(mail?.raw ?? "")).toBe(`Client report: ${site.hostPort}, grade ${audit.grade}`);
      expect(pdfOf(mail?.raw ?? "")).toBeNull();
      expect(textOf(mail?.raw ?? "")).toContain("could not be attached this time");
      const warning = lines.find((line) => line.msg === "client report PDF not made; the report mail goes without it");
      expect(warning).toMatchObject({ auditId: reported });
      expect(warning?.reason).toMatch(/dashboard is not built/);
      expect(lines.find((line) => line.msg === "client report mailed")).toMatchObject({
        auditId: reported,
        attached: false,
      });
    } finally {
      await close();
      rmSync(empty, { recursive: true, force: true });
    }
  }, 300_000);
});
