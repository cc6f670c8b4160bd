import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, test as base, expect, type Page, request } from "@playwright/test";
import { Client } from "pg";

/** What every browser test shares: the stack's addresses, accounts, signing in, the axe check. */

export const gatewayUrl = (): string => {
  const url = process.env.E2E_GATEWAY_URL;
  if (!url) throw new Error("E2E_GATEWAY_URL is not set: run the browser tests with `pnpm test:e2e`");
  return url;
};
export const siteUrl = (): string => process.env.E2E_SITE_URL ?? "";
/** the loopback sites the audits crawl (audit-sites.ts) */
export const auditSiteUrl = (): string => process.env.E2E_AUDIT_SITE_URL ?? "";
export const heldSiteUrl = (): string => process.env.E2E_HELD_SITE_URL ?? "";
/** a competitor's loopback site on 127.0.0.2, whose page the engines cite in the brand's place */
export const rivalSiteUrl = (): string => process.env.E2E_RIVAL_SITE_URL ?? "";

/** Every page opens on the gateway of this run (known only once the global setup has started it). */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(gatewayUrl());
  },
});

export { expect };

export type Account = { email: string; password: string };

export const newAccount = (): Account => ({
  email: `e2e-${randomBytes(5).toString("hex")}@example.com`,
  password: `pw-${randomBytes(9).toString("base64url")}`,
});

/** Makes an account through the gateway's sign-up endpoint, outside any browser. */
export const signUpByApi = async (account: Account = newAccount()): Promise<Account> => {
  const api = await request.newContext({ baseURL: gatewayUrl(), extraHTTPHeaders: { Origin: gatewayUrl() } });
  const response = await api.post("/auth/sign-up", { data: account });
  expect(response.status(), await response.text()).toBe(201);
  await api.dispose();
  return account;
};

/** Runs SQL against the stack's database: for what only an operator's tools do (roles, clocks). */
export const sql = async (query: string, values: unknown[] = []): Promise<void> => {
  const client = new Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(query, values);
  } finally {
    await client.end();
  }
};

export const makeOperator = (account: Account) =>
  sql(`UPDATE users SET role = 'operator' WHERE email = $1`, [account.email]);

export const signIn = async (page: Page, account: Account) => {
  await page.goto("/app/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/app\/scans$/);
};

/** No serious or critical accessibility violation on the page as it is now. */
export const expectAccessible = async (page: Page, name: string) => {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      page: name,
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(" ")).slice(0, 5),
    }));
  expect(serious).toEqual([]);
};

/** Scans the loopback site from the Scans page and waits until the live state says Done. */
export const scanFromDashboard = async (page: Page, url: string, mode: "Quick" | "Full" = "Quick") => {
  await page.goto("/app/scans");
  await page.getByLabel("Page URL").fill(url);
  await page.getByRole("radio", { name: new RegExp(`^${mode}`) }).check();
  await page.getByRole("button", { name: "Scan", exact: true }).click();
  const started = page.locator(".started").first();
  await expect(started.getByRole("status")).toContainText(/Queued|Running|Done/);
  await expect(started.getByRole("status")).toHaveText("Done.", { timeout: 120_000 });
  return started;
};

/** A JWT for API calls as the signed-in user of `page`, issued for its session as the dashboard's are. */
export const sessionToken = async (page: Page): Promise<string> => {
  const session = await page.request.get("/auth/session");
  const { csrfToken } = (await session.json()).data as { csrfToken: string };
  const issued = await page.request.post("/auth/token", {
    headers: { "X-CSRF-Token": csrfToken, Origin: gatewayUrl() },
  });
  expect(issued.status()).toBe(200);
  return ((await issued.json()).data as { token: string }).token;
};

/** Every request a browser context makes, to prove none leaves the gateway's origin. */
export const recordRequests = (context: BrowserContext): string[] => {
  const requests: string[] = [];
  context.on("request", (request) => requests.push(request.url()));
  return requests;
};

/** No request went to another origin than the gateway's (blob: URLs are the page's own downloads). */
export const expectSameOrigin = (requests: string[]) => {
  const origin = new URL(gatewayUrl()).origin;
  expect(requests.filter((url) => !url.startsWith("blob:") && new URL(url).origin !== origin)).toEqual([]);
  expect(requests.length).toBeGreaterThan(0);
};

/** Nothing on the page is wider than its screen; names the first elements that are. */
export const expectNarrow = async (page: Page, name: string) => {
  const wide = await page.evaluate(() =>
    document.documentElement.scrollWidth > window.innerWidth
      ? [...document.querySelectorAll("body *")]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
          .slice(0, 8)
      : [],
  );
  expect(wide, `${name} is wider than the screen`).toEqual([]);
};

/** The page's h1 by its name. */
export const pageHeading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });

/** A labelled region (a section of a page) by its exact name. */
export const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

/** Puts the account and its personal workspace on a plan. */
export const setPlan = async (account: Account, plan: "free" | "starter" | "pro" | "agency") => {
  await sql(`UPDATE workspaces SET plan = $2 WHERE personal_user_id = (SELECT id FROM users WHERE email = $1)`, [
    account.email,
    plan,
  ]);
  await sql("UPDATE users SET plan = $2 WHERE email = $1", [account.email, plan]);
};
