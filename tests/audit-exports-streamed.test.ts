import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { pagesCsv } from "@scan/audit";
import { allChecks } from "@scan/checks";
import type { AuditPageView, AuditView, CheckResult } from "@scan/contract";
import { Prisma } from "@scan/db";
import { createLogger } from "@scan/platform";
import { auditExportOf, renderAuditExport, TOOL } from "@scan/reports";
import { siteReport } from "@scan/reports/testing";
import { createAccount, type TestAccount } from "./support/accounts";
import { eventually } from "./support/outages";
import { junitProblems, sarifProblems } from "./support/report-schemas";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * An audit's exports written as they are read from the database (docs/audits.md, Exports): a
 * completed full audit of 300 pages, stored as the worker stores one, whose SARIF, JUnit XML and
 * pages CSV must be byte for byte the files made whole from the pages the API lists; refused
 * before their first byte when retention dropped checks; cut short, never finished with pages
 * missing, when a page fails to read after their first bytes; and no longer read once the client
 * has gone.
 */

jest.setTimeout(300_000);

type Json = Record<string, any>;

const PAGES = 300;
const ORIGIN = "https://example.com";
const STATUSES = ["pass", "pass", "warn", "fail", "pass", "skip", "fail"] as const;

/** A full scan's checks, the whole catalogue, about half of them warning or failing. */
const checksOf = (n: number): CheckResult[] =>
  allChecks.map((check, i) => {
    const status = STATUSES[(n + i) % STATUSES.length] ?? "pass";
    return {
      id: check.id,
      category: check.category,
      status,
      score: status === "pass" ? check.maxScore : status === "warn" ? check.maxScore / 2 : 0,
      maxScore: check.maxScore,
      severity: check.severity,
      title: check.title,
      description: `${check.title}: ${status} on page ${n}, as the check found it on this page with the evidence it read (${i} items).`,
      fix: status === "fail" || status === "warn" ? `Make "${check.title}" hold on this page.` : "",
    };
  });

/** The site report's findings name these pages: the exports locate them. */
const urlOf = (position: number): string =>
  position === 1
    ? `${ORIGIN}/`
    : position === 2
      ? `${ORIGIN}/about`
      : position === 3
        ? `${ORIGIN}/down`
        : `${ORIGIN}/articles/2025/an-article-with-a-long-slug-as-real-sites-have-them-${position}`;

/** Judged pages mostly; a failed one, one answering 404, a redirected one and a blocked one among them. */
const pageRow = (auditId: string, position: number): Prisma.AuditPageCreateManyInput => {
  const url = urlOf(position);
  const base = { auditId, url, position, depth: position === 1 ? 0 : 1, inSitemap: true, completedAt: new Date() };
  if (position === 3 || position % 50 === 0)
    return { ...base, status: "failed", httpStatus: 503, errorMessage: `${url} answered 503` };
  if (position === 7) return { ...base, status: "blocked" };
  const scanned = {
    ...base,
    status: "scanned" as const,
    httpStatus: position === 5 ? 404 : 200,
    finalUrl: position === 6 ? `${ORIGIN}/` : url,
    seo: 70 + (position % 30),
    aeo: 60 + (position % 40),
    geo: 50 + (position % 50),
    overall: 62 + (position % 30),
    grade: "C",
    issuesCritical: position % 4,
    issuesWarning: position % 5,
    issuesInfo: 1,
    checks: checksOf(position) as Prisma.InputJsonValue,
    facts: {
      redirects: position === 6 ? [{ from: url, to: `${ORIGIN}/`, status: 301 }] : [],
      links: [`${ORIGIN}/`, urlOf(position + 1)],
    },
  };
  return scanned;
};

afterAll(() => stopContainers());

describe("an audit's exports, written as the pages are read", () => {
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let auditId: string;
  const logs: Json[] = [];

  const download = (path: string, requestId = randomUUID(), init: RequestInit = {}) =>
    fetch(`${stack.gateway.url}${path}`, {
      ...init,
      headers: { "x-api-key": owner.key, "x-request-id": requestId },
    });
  const logLine = async (requestId: string, msg: string): Promise<Json> => {
    let found: Json | undefined;
    await eventually(
      async () => {
        found = logs.find((line) => line.requestId === requestId && line.msg === msg);
        return found !== undefined;
      },
      10_000,
      `the log line "${msg}"`,
    );
    return found as Json;
  };
  const setChecks = (position: number, checks: unknown) =>
    stack.db.auditPage.updateMany({ where: { auditId, position }, data: { checks: checks as Prisma.InputJsonValue } });

  beforeAll(async () => {
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: { RATE_LIMIT_AGENCY: "100000" },
      log: createLogger({ service: "test", level: "info" }, sink),
    });
    owner = await createAccount(stack.db, "agency");
    const site = await stack.db.site.create({
      data: { userId: owner.user.id, url: ORIGIN, domain: "example.com", name: "example.com" },
    });
    const report = siteReport({ pages_judged: PAGES - 10 });
    const audit = await stack.db.audit.create({
      data: {
        userId: owner.user.id,
        siteId: site.id,
        startUrl: `${ORIGIN}/`,
        mode: "full",
        status: "completed",
        maxPages: PAGES,
        include: [],
        exclude: [],
        discovered: PAGES,
        report,
        seo: report.scores.seo,
        aeo: report.scores.aeo,
        geo: report.scores.geo,
        overall: report.scores.overall,
        grade: report.grade,
        startedAt: new Date(),
        completedAt: new Date(),
      },
    });
    auditId = audit.id;
    await stack.db.auditPage.createMany({
      data: Array.from({ length: PAGES }, (_, i) => pageRow(auditId, i + 1)),
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  /** The audit and its pages as the API lists them, a hundred a request. */
  const listed = async (): Promise<{ audit: AuditView; pages: AuditPageView[] }> => {
    const headers = { "x-api-key": owner.key };
    const audit = ((await api(stack.gateway.url, `/api/v1/audits/${auditId}`, { headers })).body as Json).data;
    const pages: AuditPageView[] = [];
    for (let page = 1; pages.length < PAGES; page++) {
      const answer = await api(stack.gateway.url, `/api/v1/audits/${auditId}/pages?limit=100&page=${page}`, {
        headers,
      });
      pages.push(...(answer.body as Json).data);
    }
    return { audit, pages };
  };

  it("sends SARIF, JUnit XML and the pages CSV byte for byte as the files made whole from the listed pages", async () => {
    const { audit, pages } = await listed();
    expect(pages.filter((page) => page.judged)).toHaveLength(PAGES - 10);
    const exported = auditExportOf(audit, pages);
    for (const format of ["sarif", "junit"] as const) {
      const response = await download(`/api/v1/audits/${auditId}/report?format=${format}`);
      expect(response.status).toBe(200);
      // written as it is made: chunked, no length known beforehand
      expect([response.headers.get("transfer-encoding"), response.headers.get("content-length")]).toEqual([
        "chunked",
        null,
      ]);
      const body = await response.text();
      expect(body.length).toBeGreaterThan(2_000_000);
      expect(body).toBe(renderAuditExport(format, exported, TOOL));
      if (format === "sarif") {
        expect(response.headers.get("content-type")).toBe("application/sarif+json");
        const log = JSON.parse(body);
        expect(sarifProblems(log)).toEqual([]);
        expect(log.runs[0].artifacts).toHaveLength(PAGES - 3);
      } else {
        expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
        expect(await junitProblems(body)).toEqual([]);
      }
    }
    const csv = await download(`/api/v1/audits/${auditId}/pages?format=csv`);
    expect([csv.status, csv.headers.get("content-type"), csv.headers.get("content-disposition")]).toEqual([
      200,
      "text/csv; charset=utf-8",
      `attachment; filename="audit-${auditId}-pages.csv"`,
    ]);
    // read as bytes: text() would drop the byte-order mark
    const text = Buffer.from(await csv.arrayBuffer()).toString("utf8");
    // more than one write
    expect(text.length).toBeGreaterThan(64 * 1024);
    expect(text).toBe(pagesCsv(pages));
  });

  it("answers 410 before the first byte when retention dropped one judged page's checks", async () => {
    const kept = (await stack.db.auditPage.findFirstOrThrow({ where: { auditId, position: 249 } })).checks;
    await stack.db.auditPage.updateMany({ where: { auditId, position: 249 }, data: { checks: Prisma.DbNull } });
    try {
      for (const [format, form, code] of [
        ["sarif", "A", "gone"],
        ["junit", "B", "CHECKS_PRUNED"],
      ] as const) {
        const gone = await api(stack.gateway.url, `/api/v1/audits/${auditId}/report?format=${format}`, {
          headers: { "x-api-key": owner.key, "x-response-form": form },
        });
        expect([format, gone.status, gone.headers.get("content-disposition")]).toEqual([format, 410, null]);
        const body = gone.body as Json;
        expect(form === "A" ? body.error.code : body.code).toBe(code);
      }
    } finally {
      await setChecks(249, kept);
    }
  });

  it("cuts the file short, and logs why, when a page fails to read after the first bytes", async () => {
    // the last page's checks no longer read as checks
    const kept = (await stack.db.auditPage.findFirstOrThrow({ where: { auditId, position: PAGES - 1 } })).checks;
    await setChecks(PAGES - 1, [{ id: 42 }]);
    try {
      for (const path of ["report?format=junit", "pages?format=csv"]) {
        const requestId = randomUUID();
        const response = await download(`/api/v1/audits/${auditId}/${path}`, requestId);
        expect([path, response.status]).toEqual([path, 200]);
        // no last chunk: the client sees a transfer cut short, not a complete file
        await expect(response.text()).rejects.toThrow();
        const line = await logLine(requestId, "file cut short: it failed after its first bytes");
        expect(line).toMatchObject({ level: 50, errorId: expect.any(String), bytes: expect.any(Number) });
        expect(line.bytes).toBeGreaterThan(0);
        expect(line.err).toMatchObject({ message: expect.any(String) });
      }
      // SARIF's rules come first, gathered from every page's checks: the page fails before the first byte
      const requestId = randomUUID();
      const refused = await download(`/api/v1/audits/${auditId}/report?format=sarif`, requestId);
      expect([refused.status, refused.headers.get("content-disposition")]).toEqual([500, null]);
      expect(((await refused.json()) as Json).error.message).toMatch(/^Internal error \(id [0-9a-f-]{36}\)$/);
      await logLine(requestId, "unhandled error");
    } finally {
      await setChecks(PAGES - 1, kept);
    }
  });

  it("stops writing, and reading pages, when the client goes away", async () => {
    const whole = await (await download(`/api/v1/audits/${auditId}/report?format=sarif`)).text();
    const requestId = randomUUID();
    const controller = new AbortController();
    const response = await download(`/api/v1/audits/${auditId}/report?format=sarif`, requestId, {
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort();
    const line = await logLine(requestId, "file not finished: the client went away");
    // the sockets' buffers hold a few megabytes at most: far from the whole file
    expect(line.bytes).toBeLessThan(Buffer.byteLength(whole) / 2);
    const request = await logLine(requestId, "request");
    expect(request.status).toBe(499);
  });
});
