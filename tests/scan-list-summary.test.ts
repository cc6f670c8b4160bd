import { createAccount } from "./support/accounts";
import { type AccountsApi, body } from "./support/accounts-api";
import { startListsApi } from "./support/lists";
import { stopContainers } from "./support/services";

/**
 * GET /api/v1/scans reads its page without the scans' checks (docs/api.md, the scan list): each
 * item is still its scan as GET /api/v1/scan/:id shows it, less `checks` and `callback`, in both
 * forms, for a completed scan with its checks, one whose checks retention dropped, and a failed one.
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

describe("the scan list's items", () => {
  let ctx: AccountsApi;

  beforeAll(async () => {
    ctx = await startListsApi();
  }, 300_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it("are the scans as read one by one, without their checks", async () => {
    const account = await createAccount(ctx.stack.db);
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
      const row = await ctx.stack.db.scan.create({
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
      const listed = await ctx.call("/api/v1/scans", { headers });
      expect(listed.status).toBe(200);
      const items = body(listed).data as Array<Record<string, unknown>>;
      expect(items.map((item) => item.id)).toEqual([...ids].reverse());
      for (const item of items) {
        const one = await ctx.call(`/api/v1/scan/${item.id}`, { headers });
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
});
