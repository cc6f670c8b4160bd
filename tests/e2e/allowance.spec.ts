import type { Page, Response } from "@playwright/test";
import {
  expect,
  expectAccessible,
  gatewayUrl,
  newAccount,
  scanFromDashboard,
  sessionToken,
  signIn,
  signUpByApi,
  siteUrl,
  test,
} from "./support/fixtures";

/**
 * A Free user's day on the dashboard, on the stack's real Free plan (10 API requests an hour):
 * 20 page views and 5 scans without one refusal, since the dashboard's reads are the session's
 * and not the plan's, and the scans are followed by their progress streams instead of polls.
 * Then the plan's requests used up: the refusal says why and for how long in words, while
 * every page, the Account page first, still answers. And a session whose own reads a script spent
 * is refused everywhere but on the Account page, which says so.
 */

const FREE_REQUESTS = 10;

/** A refusal of the caller (not of what was asked for: a 404 is a missing thing, not a lockout). */
const REFUSALS = new Set([401, 403, 429, 503]);

/** Every refusal the gateway answered this page, and every request that left for another origin. */
const watch = (page: Page) => {
  const refused: string[] = [];
  const elsewhere: string[] = [];
  const origin = new URL(gatewayUrl()).origin;
  page.on("response", (response: Response) => {
    if (REFUSALS.has(response.status()) || response.status() >= 500)
      refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) elsewhere.push(request.url());
  });
  return { refused, elsewhere };
};

const heading = async (page: Page, name: string | RegExp) => {
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.locator(".state-loading")).toHaveCount(0);
};

test("a Free user works a day on the dashboard, 20 page views and 5 scans, and is never refused", async ({ page }) => {
  test.setTimeout(240_000);
  const account = newAccount();
  let views = 0;
  const view = async (path: string, name: string | RegExp) => {
    await page.goto(path);
    await heading(page, name);
    views += 1;
  };

  await test.step("sign up", async () => {
    await page.goto("/app/sign-up");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/app\/scans$/);
  });
  // from here on, signed in (the sign-up page's own question whether a session exists is a 401)
  const seen = watch(page);

  const reports: string[] = [];
  for (let n = 1; n <= 5; n += 1) {
    await test.step(`scan ${n}, followed by its progress stream, then its report and the lists`, async () => {
      const streams: string[] = [];
      const onRequest = (request: { url: () => string }) => {
        if (/\/api\/v1\/scan\/[0-9a-f-]{36}\/events$/.test(request.url())) streams.push(request.url());
      };
      page.on("request", onRequest);
      const started = await scanFromDashboard(page, `${siteUrl()}/guides/cold-brew?visit=${n}`);
      views += 1;
      expect(streams.length).toBeGreaterThanOrEqual(1);
      await started.getByRole("link", { name: "Open the report" }).click();
      await heading(page, "Scan report");
      await expect(page.locator(".grade-large")).toHaveText(/^(A\+|A|B\+|B|C|D|F)$/);
      views += 1;
      reports.push(page.url());
      page.off("request", onRequest);
      await view("/app/sites", "Sites");
    });
  }

  await test.step("the report of a finished scan comes whole from its stream, with no poll of the scan", async () => {
    const polls: string[] = [];
    const onRequest = (request: { method: () => string; url: () => string }) => {
      if (request.method() === "GET" && /\/api\/v1\/scan\/[0-9a-f-]{36}$/.test(request.url()))
        polls.push(request.url());
    };
    page.on("request", onRequest);
    await page.goto(reports[0] as string);
    await heading(page, "Scan report");
    await expect(page.locator(".grade-large")).toBeVisible();
    views += 1;
    page.off("request", onRequest);
    expect(polls).toEqual([]);
  });

  await test.step("more page views: the site, the keys, the account, the scans list", async () => {
    await page.goto("/app/sites");
    await page
      .getByRole("link", { name: /127\.0\.0\.1/ })
      .first()
      .click();
    await heading(page, /127\.0\.0\.1/);
    views += 1;
    await view("/app/settings/keys", "API keys");
    await view("/app/scans", "Scans");
    await view("/app/settings/account", "Account");
    while (views < 20) await view(views % 2 ? "/app/scans" : "/app/sites", views % 2 ? "Scans" : "Sites");
  });

  await test.step("not one refusal all day, nothing from another origin; the Account page counts 5 requests and 5 scans", async () => {
    expect(views).toBeGreaterThanOrEqual(20);
    expect(seen.refused).toEqual([]);
    expect(seen.elsewhere).toEqual([]);
    await view("/app/settings/account", "Account");
    const requests = page.locator(".use", { hasText: "Requests this hour" });
    await expect(requests).toContainText(`5 of ${FREE_REQUESTS} used, 5 left.`);
    await expect(requests).toContainText("reading the dashboard does not");
    await expect(requests).toContainText(/resets in about (\d+ minutes|an hour)/);
    await expect(page.locator(".use", { hasText: "Scans this month" })).toContainText("5 of 100 used");
    await expectAccessible(page, "account");
  });

  await test.step("once the plan's requests are spent, a scan is refused saying why and how long, in words", async () => {
    // the other five requests of the hour, spent by the form itself
    await page.getByRole("link", { name: "Scans", exact: true }).click();
    for (let n = 0; n < FREE_REQUESTS - 5; n += 1) {
      await page.getByLabel("Page URL").fill(`${siteUrl()}/?extra=${n}`);
      await page.getByRole("button", { name: "Scan", exact: true }).click();
      await expect(page.locator(".started")).toHaveCount(n + 1);
      // the newest is first; each is followed to its end, so no more streams are open than a user may hold
      await expect(page.locator(".started").first().getByRole("status")).toHaveText("Done.", { timeout: 45_000 });
    }
    await page.getByLabel("Page URL").fill(`${siteUrl()}/?one-too-many`);
    await page.getByRole("button", { name: "Scan", exact: true }).click();
    await expect(page.locator(".form-error")).toHaveText(
      /^Rate limit of 10 requests per hour reached for this user\. Try again in about (\d+ minutes|an hour)\.$/,
    );
    await expectAccessible(page, "scans, refused");
  });

  await test.step("every page still answers, the Account page first, saying the window is used up", async () => {
    await view("/app/settings/account", "Account");
    await expect(page.locator(".use", { hasText: "Requests this hour" })).toContainText(
      `${FREE_REQUESTS} of ${FREE_REQUESTS} used, 0 left.`,
    );
    await view("/app/sites", "Sites");
    await page.goto(reports[1] as string);
    await heading(page, "Scan report");
    await expect(page.locator(".grade-large")).toBeVisible();
    // the only refusal of the day is the scan over the plan's allowance
    expect(seen.refused).toEqual([expect.stringMatching(/^429 POST .*\/api\/v1\/scan$/)]);
    expect(seen.elsewhere).toEqual([]);
  });
});

test("the report page names the real cause when it cannot be shown: a missing scan, or a session that read too much", async ({
  page,
}) => {
  // 3,600 reads on a shared two-core machine, 20 at a time (100 at once wait on Postgres's pool)
  test.setTimeout(360_000);
  await signIn(page, await signUpByApi());
  await page.goto("/app/scans/7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11");
  const problem = page.getByRole("alert");
  await expect(problem).toContainText("This scan cannot be shown.");
  await expect(problem).toContainText("It may have been deleted, or belong to another account.");

  const started = await scanFromDashboard(page, `${siteUrl()}/guides/cold-brew?cause`);
  await started.getByRole("link", { name: "Open the report" }).click();
  await expect(page.locator(".grade-large")).toBeVisible();
  const report = page.url();
  // a script on this session reads until the session's own budget (3,600 an hour) is spent
  const jwt = await sessionToken(page);
  const read = () =>
    page.request.get("/api/v1/scans?limit=1", { headers: { Authorization: `Bearer ${jwt}` } }).then((r) => r.status());
  let status = 200;
  while (status === 200) status = Math.max(...(await Promise.all(Array.from({ length: 20 }, read))));
  expect(status).toBe(429);

  await page.goto(report);
  await expect(problem).toContainText("This scan cannot be shown.");
  await expect(problem).toContainText("reached for this dashboard session's reads");
  await expect(problem).toContainText(/Try again in about (\d+ minutes|an hour)\./);
  await expect(problem).not.toContainText("deleted");
  await expectAccessible(page, "report, refused");

  // the Account page is what explains it: it still answers, and shows the session's reads spent
  await page.goto("/app/settings/account");
  await heading(page, "Account");
  const reads = page.locator(".use", { hasText: "Dashboard reads this hour" });
  await expect(reads).toContainText("3,600 of 3,600 used, 0 left.");
  await expect(reads).toContainText(/every page but this one waits\. It starts again in about (\d+ minutes|an hour)\./);
  await expectAccessible(page, "account, reads spent");
});
