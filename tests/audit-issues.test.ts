import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The issue rollup of a planted site audited twice (GET /api/v1/audits/:id/issues): every
 * planted defect is a row with its page count and share, its pages list each page once with
 * what the check found there, and the second audit says which issues are new, persisting and
 * fixed. Both envelopes; unknown and other users' audits 404; an audit under way is counted from
 * the pages done so far.
 */

type Json = Record<string, any>;

/** A small page: title, description and heading unless planted away; links to the others. */
const pageOf = ({
  title,
  description = true,
  h1 = true,
  links,
}: {
  title: string | null;
  description?: boolean;
  h1?: boolean;
  links: string[];
}) =>
  `<!doctype html><html lang="en"><head>${title === null ? "" : `<title>${title}</title>`}
${description ? `<meta name="description" content="${title ?? "A page"}: a page of the planted site, described.">` : ""}</head>
<body><main>${h1 ? `<h1>${title ?? "A page"}</h1>` : "<p>No heading here.</p>"}<p>Words on the page for the checks to read.</p>
${links.map((link) => `<a href="${link}">${link}</a>`).join(" ")}</main></body></html>`;

/**
 * Round 1: /a and /b have no meta description, /c no h1.
 * Round 2: /a still has no meta description, /c has its h1 but no title, and / links to /gone (404).
 */
let round = 1;
const routesOf = (): Record<string, string> => {
  const home = round === 1 ? ["/a", "/b", "/c"] : ["/a", "/b", "/c", "/gone"];
  return {
    "/": pageOf({ title: "The home page of the planted site", links: home }),
    "/a": pageOf({ title: "The first page of the planted site", description: false, links: ["/"] }),
    "/b": pageOf({ title: "The second page of the planted site", description: round === 2, links: ["/"] }),
    "/c": pageOf({ title: round === 1 ? "The third page of the planted site" : null, h1: round === 2, links: ["/"] }),
  };
};

afterAll(() => stopContainers());

describe("an audit issue by issue", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let owner: TestAccount;
  let other: TestAccount;
  let siteId: string;
  let first: string;
  let second: string;

  const call = async (path: string, key: string, form?: "A" | "B") => {
    const response = await api(stack.gateway.url, path, {
      headers: { "x-api-key": key, ...(form ? { "x-response-form": form } : {}) },
    });
    return { ...response, body: response.body as Json };
  };

  const audit = async () => {
    const started = await api(stack.gateway.url, `/api/v1/sites/${siteId}/audits`, {
      headers: { "x-api-key": owner.key },
      body: { mode: "quick" },
    });
    expect(started.status).toBe(202);
    const id = (started.body as Json).data.id as string;
    await eventually(
      async () => (await stack.db.audit.findUniqueOrThrow({ where: { id } })).status === "completed",
      90_000,
      "the audit to complete",
    );
    return id;
  };

  const issuesOf = async (id: string, query = "") => {
    const response = await call(`/api/v1/audits/${id}/issues${query}`, owner.key);
    expect(response.status).toBe(200);
    return response.body.data as Json;
  };
  const row = (rollup: Json, check: string) => (rollup.issues as Json[]).find((issue) => issue.check === check);
  const pagesOf = async (id: string, check: string, query = "") => {
    const response = await call(`/api/v1/audits/${id}/issues/${check}/pages${query}`, owner.key);
    expect(response.status).toBe(200);
    return response.body as Json;
  };

  beforeAll(async () => {
    site = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const body = routesOf()[path];
      if (body === undefined) return res.writeHead(404, { "content-type": "text/html" }).end("<title>gone</title>");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
    owner = await createAccount(stack.db, "agency");
    other = await createAccount(stack.db, "agency");
    const created = await api(stack.gateway.url, "/api/v1/sites", {
      headers: { "x-api-key": owner.key },
      body: { url: site.url("/") },
    });
    siteId = (created.body as Json).data.id as string;
    first = await audit();
    round = 2;
    second = await audit();
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
  });

  it("rolls up the first audit: every planted issue with its pages and share, nothing to compare with", async () => {
    const rollup = await issuesOf(first);
    expect(rollup).toMatchObject({
      audit_id: first,
      site_id: siteId,
      mode: "quick",
      status: "completed",
      complete: true,
      pages_judged: 4,
      previous_audit_id: null,
    });
    expect(row(rollup, "meta-description")).toEqual({
      check: "meta-description",
      scope: "page",
      title: expect.any(String),
      category: "seo",
      severity: expect.any(String),
      pages: 2,
      share: 0.5,
      findings: null,
      state: null,
      previous_pages: null,
    });
    expect(row(rollup, "h1")).toMatchObject({ scope: "page", pages: 1, share: 0.25, state: null });
    expect(row(rollup, "title")).toBeUndefined();
    expect(row(rollup, "broken-internal-links")).toBeUndefined();

    const described = await pagesOf(first, "meta-description");
    expect(described.meta).toMatchObject({ total: 2, hasMore: false });
    expect(described.data.map((page: Json) => page.url)).toEqual([site.url("/a"), site.url("/b")]);
    expect(described.data[0]).toEqual({
      url: site.url("/a"),
      status: expect.stringMatching(/^(fail|warn)$/),
      finding: expect.any(String),
      related: [],
      page_id: expect.any(String),
    });
    expect(described.data[0].finding.length).toBeGreaterThan(0);
  });

  it("compares the second audit with the first: new, persisting and fixed", async () => {
    const rollup = await issuesOf(second);
    expect(rollup).toMatchObject({ audit_id: second, complete: true, previous_audit_id: first });
    // /gone answered 404: admitted and scanned, but not judged
    expect(rollup.pages_judged).toBe(4);
    expect(row(rollup, "meta-description")).toMatchObject({
      pages: 1,
      share: 0.25,
      state: "persisting",
      previous_pages: 2,
    });
    expect(row(rollup, "title")).toMatchObject({ scope: "page", pages: 1, state: "new", previous_pages: null });
    expect(row(rollup, "h1")).toMatchObject({ pages: 0, share: 0, state: "fixed", previous_pages: 1 });
    expect(row(rollup, "broken-internal-links")).toMatchObject({
      scope: "site",
      category: "seo",
      state: "new",
      findings: 1,
      // the URL at fault and the page linking to it
      pages: 2,
      share: 0.5,
    });
    // fixed issues come last
    const states = (rollup.issues as Json[]).map((issue) => issue.state);
    expect(states.slice(states.indexOf("fixed")).every((state) => state === "fixed")).toBe(true);
    // every row's count is the number of pages its list holds
    for (const issue of rollup.issues as Json[]) {
      const listed = await pagesOf(second, issue.check, "?limit=100");
      expect([issue.check, listed.meta.total]).toEqual([
        issue.check,
        issue.scope === "site" ? issue.findings : issue.pages,
      ]);
    }

    const broken = await pagesOf(second, "broken-internal-links");
    expect(broken.data).toEqual([
      {
        url: site.url("/gone"),
        status: "fail",
        finding: expect.stringContaining("404"),
        related: [site.url("/")],
        page_id: null,
      },
    ]);
    expect((await pagesOf(second, "h1")).meta.total).toBe(0);
    expect((await pagesOf(second, "title")).data.map((page: Json) => page.url)).toEqual([site.url("/c")]);
  });

  it("filters by state, severity and category, and pages and searches an issue's pages", async () => {
    const fresh = await issuesOf(second, "?state=new");
    expect(fresh.issues.map((issue: Json) => issue.check).sort()).toEqual(
      expect.arrayContaining(["broken-internal-links", "title"]),
    );
    expect(fresh.issues.every((issue: Json) => issue.state === "new")).toBe(true);
    expect((await issuesOf(second, "?state=fixed")).issues.map((issue: Json) => issue.check)).toEqual(["h1"]);
    const all = await issuesOf(second);
    for (const severity of ["critical", "warning", "info"]) {
      const kept = await issuesOf(second, `?severity=${severity}`);
      expect(kept.issues).toEqual(all.issues.filter((issue: Json) => issue.severity === severity));
    }
    const aeo = await issuesOf(second, "?category=aeo&severity=warning");
    expect(aeo.issues).toEqual(
      all.issues.filter((issue: Json) => issue.category === "aeo" && issue.severity === "warning"),
    );

    // a check on every judged page: paged two at a time, and searched
    const everywhere = (all.issues as Json[]).find((issue) => issue.scope === "page" && issue.pages === 4);
    expect(everywhere).toBeDefined();
    const check = everywhere?.check as string;
    const pageOne = await call(`/api/v1/audits/${second}/issues/${check}/pages?limit=2`, owner.key);
    expect(pageOne.body.meta).toMatchObject({ page: 1, limit: 2, total: 4, hasMore: true });
    expect(pageOne.headers.get("link")).toContain('rel="next"');
    const pageTwo = await pagesOf(second, check, "?limit=2&page=2");
    expect([...pageOne.body.data, ...pageTwo.data].map((page: Json) => page.url)).toEqual(
      ["/", "/a", "/b", "/c"].map((path) => site.url(path)),
    );
    const searched = await pagesOf(second, check, "?q=%2FB");
    expect(searched.data.map((page: Json) => page.url)).toEqual([site.url("/b")]);
    // matched literally: % is no wildcard
    expect((await pagesOf(second, check, "?q=%25")).meta.total).toBe(0);

    const csv = await call(`/api/v1/audits/${second}/issues?format=csv&state=new`, owner.key);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="audit-${second}-issues.csv"`);
    const lines = String(csv.body).replace(/\r\n$/, "").split("\r\n");
    // fetch reads the byte-order mark away
    expect(lines[0]).toBe("check,scope,title,category,severity,state,pages,share,previous_pages,findings");
    expect(lines).toHaveLength(1 + fresh.issues.length);
    expect(lines.some((line) => line.startsWith("broken-internal-links,site,"))).toBe(true);
  });

  it("answers in both envelopes, refuses bad input, and hides unknown and other users' audits", async () => {
    const formB = await call(`/api/v1/audits/${second}/issues`, owner.key, "B");
    expect(formB.status).toBe(200);
    expect(formB.body).toMatchObject({ success: true, data: { audit_id: second } });
    expect(formB.body.ok).toBeUndefined();
    const formA = await call(`/api/v1/audits/${second}/issues`, owner.key, "A");
    expect(formA.body).toMatchObject({ ok: true, data: { audit_id: second }, meta: { requestId: expect.any(String) } });
    const pagesB = await call(`/api/v1/audits/${second}/issues/title/pages`, owner.key, "B");
    expect(pagesB.body).toMatchObject({ success: true, meta: { total: 1 } });

    const unknown = randomUUID();
    for (const path of [`/api/v1/audits/${unknown}/issues`, `/api/v1/audits/${unknown}/issues/title/pages`]) {
      const a = await call(path, owner.key, "A");
      expect(a.status).toBe(404);
      expect(a.body).toMatchObject({ ok: false, error: { code: "not_found" } });
      const b = await call(path, owner.key, "B");
      expect(b.status).toBe(404);
      expect(b.body).toMatchObject({ error: expect.stringContaining(unknown), code: "NOT_FOUND" });
    }
    for (const path of [`/api/v1/audits/${second}/issues`, `/api/v1/audits/${second}/issues/title/pages`]) {
      const theirs = await call(path, other.key);
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.message).toBe(`No audit with id ${second}`);
    }
    const notAnIssue = await call(`/api/v1/audits/${second}/issues/not-a-check/pages`, owner.key);
    expect(notAnIssue.status).toBe(404);
    expect(notAnIssue.body.error.hint).toContain(`/api/v1/audits/${second}/issues`);
    for (const query of ["?severity=high", "?state=old", "?category=x", "?format=xml", "?page=1"]) {
      const bad = await call(`/api/v1/audits/${second}/issues${query}`, owner.key);
      expect([query, bad.status, bad.body.ok]).toEqual([query, 400, false]);
    }
    const badCheck = await call(`/api/v1/audits/${second}/issues/Title!/pages`, owner.key);
    expect(badCheck.status).toBe(400);
    const longQ = await call(`/api/v1/audits/${second}/issues/title/pages?q=${"x".repeat(201)}`, owner.key);
    expect(longQ.status).toBe(400);
    expect((await api(stack.gateway.url, `/api/v1/audits/${second}/issues`)).status).toBe(401);
  });

  it("counts an audit under way from the pages it has judged so far, and says what retention left", async () => {
    // an audit of the site still running, its pages those of the second audit, scanned so far
    const running = await stack.db.audit.create({
      data: {
        userId: owner.user.id,
        siteId,
        startUrl: site.url("/"),
        mode: "quick",
        status: "running",
        maxPages: 10,
        include: [],
        exclude: [],
      },
    });
    await stack.db.$executeRaw`
      INSERT INTO "audit_pages" ("id", "audit_id", "url", "position", "depth", "in_sitemap", "status", "http_status",
        "final_url", "checks", "facts", "updated_at")
      SELECT gen_random_uuid(), ${running.id}::uuid, "url", "position", "depth", "in_sitemap", "status", "http_status",
        "final_url", "checks", "facts", now()
      FROM "audit_pages" WHERE "audit_id" = ${second}::uuid`;
    const underWay = await issuesOf(running.id);
    expect(underWay).toMatchObject({
      status: "running",
      complete: false,
      pages_judged: 4,
      previous_audit_id: second,
    });
    const done = await issuesOf(second);
    const pageRows = (rollup: Json) =>
      (rollup.issues as Json[])
        .filter((issue) => issue.scope === "page" && issue.state !== "fixed")
        .map((issue) => [issue.check, issue.pages, issue.share]);
    // the same page checks as the finished audit's report, each persisting; no site check yet
    expect(pageRows(underWay)).toEqual(pageRows(done));
    expect(underWay.issues.every((issue: Json) => issue.scope === "page")).toBe(true);
    expect(underWay.issues.every((issue: Json) => issue.state === "persisting")).toBe(true);
    expect((await pagesOf(running.id, "title")).data.map((page: Json) => page.url)).toEqual([site.url("/c")]);
    await stack.db.audit.update({ where: { id: running.id }, data: { status: "cancelled" } });

    // once retention dropped the pages' checks: a completed audit's rollup stands (its report),
    // its page checks' pages are gone (410), its site checks' findings stay; a cancelled one has nothing left to count
    await stack.db.$executeRaw`UPDATE "audit_pages" SET "checks" = NULL, "facts" = NULL
      WHERE "audit_id" IN (${second}::uuid, ${running.id}::uuid)`;
    expect((await issuesOf(second)).issues).toEqual(done.issues);
    const pruned = await call(`/api/v1/audits/${second}/issues/title/pages`, owner.key, "B");
    expect(pruned.status).toBe(410);
    expect(pruned.body).toMatchObject({ code: "CHECKS_PRUNED" });
    expect((await pagesOf(second, "broken-internal-links")).meta.total).toBe(1);
    const cancelled = await call(`/api/v1/audits/${running.id}/issues`, owner.key);
    expect(cancelled.status).toBe(410);
    expect(cancelled.body.error).toMatchObject({ code: "gone", message: expect.stringContaining("retention") });
  });
});
