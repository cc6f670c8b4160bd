import type { Page } from "@playwright/test";
import {
  type Account,
  expect,
  expectAccessible,
  expectNarrow,
  gatewayUrl,
  makeOperator,
  scanFromDashboard,
  sessionToken,
  signIn,
  signUpByApi,
  siteUrl,
  test,
} from "./support/fixtures";

/**
 * Every page of the dashboard, as an operator with a scan, a site and a key: no serious or
 * critical accessibility violation (axe-core), readable at phone width, and not one request
 * to another origin nor any Content-Security-Policy violation on the way.
 */

type Visit = { name: string; path: string | ((ids: Ids) => string); ready: (page: Page) => Promise<void> };
type Ids = { scan: string; site: string };

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.locator(".state-loading")).toHaveCount(0);
};

const SIGNED_OUT: Visit[] = [
  { name: "sign in", path: "/app/sign-in", ready: heading("Sign in") },
  { name: "sign up", path: "/app/sign-up", ready: heading("Create an account") },
  {
    name: "accept invitation (unknown)",
    path: "/app/accept-invitation#token=not-a-real-invitation",
    ready: async (page) => {
      await heading("Accept your invitation")(page);
      await expect(page.getByText(/unknown, already used or expired/)).toBeVisible();
    },
  },
  { name: "reset password", path: "/app/reset-password#token=some-reset-token", ready: heading("Reset your password") },
  {
    name: "workspace invitation",
    path: "/app/workspace-invitation#token=some-invitation-token",
    ready: heading("Join a workspace"),
  },
  { name: "not found", path: "/app/no-such-page", ready: heading("Page not found") },
];

const SIGNED_IN: Visit[] = [
  { name: "scans", path: "/app/scans", ready: heading("Scans") },
  { name: "report", path: ({ scan }) => `/app/scans/${scan}`, ready: heading("Scan report") },
  { name: "sites", path: "/app/sites", ready: heading("Sites") },
  { name: "site", path: ({ site }) => `/app/sites/${site}`, ready: heading("127.0.0.1") },
  {
    name: "AI visibility",
    path: ({ site }) => `/app/sites/${site}/visibility`,
    ready: async (page) => {
      await heading("AI visibility: 127.0.0.1")(page);
      await expect(page.getByRole("region", { name: "Prompt list", exact: true })).toBeVisible();
      await expect(page.getByRole("region", { name: "Competitor list", exact: true })).toBeVisible();
    },
  },
  {
    name: "workspace",
    path: "/app/settings/workspace",
    ready: async (page) => {
      await heading(/@example\.com$/)(page);
      await expect(page.getByRole("region", { name: "Member list", exact: true })).toBeVisible();
      await expect(page.getByRole("region", { name: "Engine key list", exact: true })).toBeVisible();
    },
  },
  { name: "API keys", path: "/app/settings/keys", ready: heading("API keys") },
  { name: "account", path: "/app/settings/account", ready: heading("Account") },
  {
    name: "operations",
    path: "/app/operations",
    ready: async (page) => {
      await heading("Operations")(page);
      await expect(page.getByRole("heading", { level: 2, name: "Queue" })).toBeVisible();
    },
  },
];

test.describe("every page", () => {
  let account: Account;
  let ids: Ids;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    account = await signUpByApi();
    await makeOperator(account);
    const page = await (await browser.newContext({ baseURL: gatewayUrl() })).newPage();
    await signIn(page, account);
    const started = await scanFromDashboard(page, `${siteUrl()}/`);
    await started.getByRole("link", { name: "Open the report" }).click();
    const scan = page.url().split("/").pop() ?? "";
    await page.goto("/app/sites");
    await page.getByRole("link", { name: "127.0.0.1" }).first().click();
    const site = page.url().split("/").pop() ?? "";
    await page.goto("/app/settings/keys");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("button", { name: "I have copied it" }).click();
    // the site's AI visibility has a prompt and a competitor, the workspace an engine key
    const token = await sessionToken(page);
    const workspaces = await page.request.get("/api/v1/workspaces", { headers: { Authorization: `Bearer ${token}` } });
    const workspace = ((await workspaces.json()).data as Array<{ id: string }>)[0]?.id ?? "";
    for (const [path, body, method] of [
      [
        `/api/v1/sites/${site}/prompts`,
        { text: "Which brewing guide explains cold brew ratios best?", topic: "cold brew" },
        "post",
      ],
      [`/api/v1/sites/${site}/competitors`, { name: "Brew Academy", domains: ["brew-academy.example"] }, "post"],
      [`/api/v1/workspaces/${workspace}/engine-keys/claude`, { api_key: "sk-ant-pages-0123456789abcd" }, "put"],
    ] as const) {
      const answer = await page.request[method](path, { headers: { Authorization: `Bearer ${token}` }, data: body });
      expect(answer.status(), await answer.text()).toBe(201);
    }
    ids = { scan, site };
    await page.context().close();
  });

  /** Visits each page, collecting every request and every policy violation on the way. */
  const visitAll = async (page: Page, visits: Visit[], check: (page: Page, name: string) => Promise<void>) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        (window as unknown as { violations: string[] }).violations ??= [];
        (window as unknown as { violations: string[] }).violations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        );
      });
    });
    const violations: string[] = [];
    for (const visit of visits) {
      await page.goto(typeof visit.path === "string" ? visit.path : visit.path(ids));
      await visit.ready(page);
      await check(page, visit.name);
      violations.push(
        ...(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])),
      );
    }
    const origin = new URL(gatewayUrl()).origin;
    const foreign = requests.filter((url) => !url.startsWith("blob:") && new URL(url).origin !== origin);
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    expect(requests.length).toBeGreaterThan(visits.length);
  };

  test("signed out: accessible, and no request leaves the gateway's origin", async ({ page }) => {
    await visitAll(page, SIGNED_OUT, expectAccessible);
  });

  test("signed in: accessible, and no request leaves the gateway's origin", async ({ page }) => {
    await signIn(page, account);
    await visitAll(page, SIGNED_IN, expectAccessible);
  });

  test("readable at phone width (375 px): nothing wider than the screen", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page, account);
    await visitAll(page, SIGNED_IN, async (current, name) => {
      // the page never scrolls sideways (a wide table scrolls inside its own frame)
      await expectNarrow(current, name);
    });
  });

  test("a report labels every check with its evidence grade; the source opens by keyboard", async ({ page }) => {
    await signIn(page, account);
    await page.goto(`/app/scans/${ids.scan}`);
    await expect(page.getByRole("heading", { level: 1, name: "Scan report" })).toBeVisible();
    const failed = page.locator(".checks").first().locator(".check");
    await expect(failed.first()).toBeVisible();
    // every check drawn has its label
    const drawn = await page.locator(".check").count();
    await expect(page.locator(".check .evidence > summary")).toHaveCount(drawn);
    const label = page.locator(".check .evidence > summary").first();
    await label.focus();
    await expect(label).toBeFocused();
    await page.keyboard.press("Enter");
    const source = page.locator(".check .evidence .evidence-source").first();
    await expect(source).toBeVisible();
    await expect(source).toContainText(/score/);
    await page.screenshot({ path: test.info().outputPath("report-evidence.png"), fullPage: false });
    await page.keyboard.press("Enter");
    await expect(source).toBeHidden();
    // a convention-only check says it is not scored
    const convention = page.locator(".check .evidence-convention").first();
    await convention.locator("summary").focus();
    await page.keyboard.press("Space");
    await expect(convention.locator(".evidence-source")).toContainText("does not count in the score");
  });

  test("keyboard only: sign in, reach the sections and open a report", async ({ page }) => {
    await page.goto("/app/sign-in");
    // the page's title has the focus; the skip link is just before it
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.keyboard.type(account.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(account.password);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/app\/scans$/);
    // the page's title takes the focus, so the next Tab starts at the top of the page
    await expect(page.getByRole("heading", { level: 1, name: "Scans" })).toBeFocused();
    const report = page.getByRole("link", { name: `${siteUrl()}/` }).first();
    await report.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Scan report" })).toBeFocused();
  });
});
