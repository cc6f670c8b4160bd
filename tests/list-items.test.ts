import { createAccount } from "./support/accounts";
import { body } from "./support/accounts-api";
import { listsApiForSuite } from "./support/lists";
import { stopContainers } from "./support/services";

/**
 * Lists that read their page in fewer queries than their records one by one still answer each
 * record as its own endpoint does:
 * - GET /api/v1/scans reads its page without the scans' checks (docs/api.md, the scan list): each
 *   item is its scan as GET /api/v1/scan/:id shows it, less `checks` and `callback`, in both forms,
 *   for a completed scan with its checks, one whose checks retention dropped, and a failed one;
 * - GET /api/v1/sites/:id/audits counts the page's audit pages in one query: each audit's
 *   progress is the one GET /api/v1/audits/:id shows (pages left `running` by no live worker
 *   counted as queued).
 */

afterAll(() => stopContainers());

const check = (id: string, status: "pass" | "fail") => ({
  id,
  category: "seo",
  status,
  score: status === "pass" ? 5 : 0,
  maxScore: 5,
  severity: "warning",
  title: `Check ${id}`,
  description: `What ${id} found on the page.`,
  fix: `What to change for ${id}.`,
});

describe("list items", () => {
  const api = listsApiForSuite();

  it("are the scans as read one by one, without their checks", async () => {
    const account = await createAccount(api().stack.db);
    const base = Date.now() - 3_600_000;
    const scored = { seo: 80, aeo: 70, geo: 60, overall: 70, grade: "B", issuesWarning: 1 };
    const made = [
      {
        url: "https://kept.example/",
        mode: "full" as const,
        status: "completed" as const,
        ...scored,
        checks: [check("title", "pass"), check("meta-description", "fail")],
        rendered: true,
        durationMs: 2100,
      },
      {
        url: "https://pruned.example/page",
        mode: "quick" as const,
        status: "completed" as const,
        ...scored,
        checks: undefined,
        checksPrunedAt: new Date(base + 1_000),
        rendered: false,
        renderFailure: "dom_unreadable",
        durationMs: 900,
      },
      {
        url: "https://down.example/",
        mode: "quick" as const,
        status: "failed" as const,
        errorCode: "upstream_failure",
        errorMessage: "The page did not answer in time.",
      },
    ];
    const ids: string[] = [];
    for (const [i, scan] of made.entries()) {
      const at = new Date(base + i * 60_000);
      const row = await api().stack.db.scan.create({
        data: {
          ...scan,
          userId: account.user.id,
          createdAt: at,
          startedAt: at,
          completedAt: new Date(at.getTime() + 2_000),
        },
      });
      ids.push(row.id);
    }
    for (const form of ["A", "B"] as const) {
      const headers = { "x-api-key": account.key, ...(form === "B" ? { "x-response-form": "B" } : {}) };
      const listed = await api().call("/api/v1/scans", { headers });
      expect(listed.status).toBe(200);
      const items = body(listed).data as Array<Record<string, unknown>>;
      expect(items.map((item) => item.id)).toEqual([...ids].reverse());
      for (const item of items) {
        const one = await api().call(`/api/v1/scan/${item.id}`, { headers });
        expect(one.status).toBe(200);
        const { checks, callback: _callback, ...summary } = body(one).data as Record<string, unknown>;
        expect(item).toEqual(summary);
        expect(item).not.toHaveProperty("checks");
        if (item.id === ids[0]) expect(checks).toHaveLength(2);
      }
      const pruned = items.find((item) => item.id === ids[1]);
      expect(pruned).toMatchObject({
        checks_pruned_at: expect.any(String),
        render_failure: { code: "dom_unreadable", message: expect.any(String) },
      });
      const failed = items.find((item) => item.id === ids[2]);
      expect(failed).toMatchObject({ status: "failed", error: { code: "upstream_failure" } });
    }
  });

  it("are the audits as read one by one, each with its own progress", async () => {
    const account = await createAccount(api().stack.db);
    const site = await api().stack.db.site.create({
      data: { userId: account.user.id, url: "https://audited.example", domain: "audited.example", name: "Audited" },
    });
    const base = Date.now() - 3_600_000;
    // per audit, how many of its pages are in each state
    const shapes: Array<Partial<Record<"queued" | "running" | "scanned" | "failed" | "blocked", number>>> = [
      { scanned: 12, failed: 2, blocked: 1 },
      { queued: 3, running: 2, scanned: 4 },
      {},
      { scanned: 1 },
    ];
    const ids: string[] = [];
    for (const [i, shape] of shapes.entries()) {
      const done = Object.keys(shape).length > 0 && !shape.queued && !shape.running;
      const audit = await api().stack.db.audit.create({
        data: {
          userId: account.user.id,
          siteId: site.id,
          startUrl: `${site.url}/`,
          mode: "quick",
          status: done ? "completed" : "running",
          maxPages: 50,
          include: [],
          exclude: [],
          discovered: Object.values(shape).reduce((sum, n) => sum + n, 0),
          createdAt: new Date(base + i * 60_000),
        },
      });
      let position = 0;
      const pages = Object.entries(shape).flatMap(([status, n]) =>
        Array.from({ length: n }, () => {
          position += 1;
          return {
            auditId: audit.id,
            url: `${site.url}/p${position}`,
            position,
            depth: 1,
            status: status as "scanned",
          };
        }),
      );
      await api().stack.db.auditPage.createMany({ data: pages });
      ids.push(audit.id);
    }
    const headers = { "x-api-key": account.key };
    const listed = await api().call(`/api/v1/sites/${site.id}/audits`, { headers });
    expect(listed.status).toBe(200);
    const items = body(listed).data as Array<Record<string, unknown>>;
    expect(items.map((item) => item.id)).toEqual([...ids].reverse());
    for (const item of items) {
      const one = await api().call(`/api/v1/audits/${item.id}`, { headers });
      expect(one.status).toBe(200);
      expect(item).toEqual({ ...(body(one).data as Record<string, unknown>), report: null });
    }
    const progressOf = (id: string) => items.find((item) => item.id === id)?.progress;
    expect(progressOf(ids[0] as string)).toMatchObject({
      discovered: 15,
      scanned: 12,
      failed: 2,
      blocked: 1,
      queued: 0,
    });
    // no live worker holds the running pages: about to run again, so queued
    expect(progressOf(ids[1] as string)).toMatchObject({ discovered: 9, queued: 5, running: 0, scanned: 4 });
    expect(progressOf(ids[2] as string)).toMatchObject({ discovered: 0, scanned: 0 });
  });
});
