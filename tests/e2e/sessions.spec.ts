import {
  expect,
  expectAccessible,
  gatewayUrl,
  makeOperator,
  signIn,
  signUpByApi,
  siteUrl,
  sql,
  test,
} from "./support/fixtures";

/** Signing in and being refused: wrong passwords, forged requests, roles, ended sessions. */

test("a wrong password is refused with one message, and nothing is signed in", async ({ page, context }) => {
  const account = await signUpByApi();
  await page.goto("/app/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(`${account.password}-wrong`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/app\/sign-in$/);
  // an unknown email reads the same
  await page.getByLabel("Email").fill(`nobody-${account.email}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  expect((await context.cookies()).some((cookie) => cookie.name === "scan_session")).toBe(false);
});

test("a request forged from another origin is refused and the session goes on", async ({ page }) => {
  const account = await signUpByApi();
  await signIn(page, account);
  // another origin (the loopback site, another port) makes the signed-in browser post to the gateway
  await page.goto(`${siteUrl()}/cross-site`);
  const results = await page.evaluate(() => (window as unknown as { forge: () => Promise<unknown> }).forge());
  expect(results).toBeTruthy();
  // and a plain form post, whose answer the browser shows
  await Promise.all([
    page.waitForURL(`${gatewayUrl()}/auth/sign-out`),
    page.locator("#forged").evaluate((form: HTMLFormElement) => form.submit()),
  ]);
  await expect(page.locator("body")).toContainText("forbidden");
  await expect(page.locator("body")).toContainText(/CSRF|X-CSRF-Token/i);
  // still signed in
  await page.goto("/app/settings/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
});

test("a member opening Operations is told it is for operators (403); an operator sees the queue", async ({
  browser,
}) => {
  const member = await signUpByApi();
  const operator = await signUpByApi();
  await makeOperator(operator);

  const memberPage = await (await browser.newContext({ baseURL: gatewayUrl() })).newPage();
  await signIn(memberPage, member);
  await expect(memberPage.getByRole("link", { name: "Operations" })).toHaveCount(0);
  await memberPage.goto("/app/operations");
  await expect(memberPage.getByRole("alert")).toContainText("You are not allowed to see this page (403).");
  await expect(memberPage.getByRole("alert")).toContainText("operator");
  await expectAccessible(memberPage, "operations, as a member");

  const operatorPage = await (await browser.newContext({ baseURL: gatewayUrl() })).newPage();
  await signIn(operatorPage, operator);
  await operatorPage.getByRole("link", { name: "Operations" }).click();
  await expect(operatorPage.getByRole("heading", { level: 2, name: "Queue" })).toBeVisible();
  await expect(operatorPage.getByRole("heading", { level: 2, name: "Workers" })).toBeVisible();
  await expect(operatorPage.locator("table", { hasText: "Last seen" })).toBeVisible();
  await expect(operatorPage.getByRole("link", { name: "Queue dashboard" })).toHaveAttribute("href", "/admin/queues");
});

test("a session that expires sends the browser back to sign in, and back to the page after", async ({ page }) => {
  const account = await signUpByApi();
  let inFlight = 0;
  page.on("request", () => {
    inFlight += 1;
  });
  const settled = () => {
    inFlight -= 1;
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  await signIn(page, account);
  await page.getByRole("link", { name: "Sites", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sites" })).toBeVisible();
  // every request of the Sites page is answered before the session runs out (on a loaded machine
  // its lists may come after its heading): the page that finds the session ended is the next one
  await expect(page.getByText("No sites yet.")).toBeVisible();
  await expect.poll(() => inFlight).toBe(0);
  // the session's time runs out on the server
  await sql(
    `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [account.email],
  );
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/app\/sign-in\?next=%2Fsettings%2Fkeys/);
  await expect(page.getByText("Your session has ended. Sign in again to go on.")).toBeVisible();
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/app\/settings\/keys$/);
});
