import { expect, gatewayUrl, newAccount, scanFromDashboard, siteUrl, test } from "./support/fixtures";

/**
 * A new user's whole path, in one browser: sign up, sign out, sign in, make an API key and
 * read it once, scan a page and watch it finish, read the report, find the site, delete the
 * key and see the API refuse it, sign out.
 */
test("a new user signs up, makes a key, scans a page, reads the report, finds the site and deletes the key", async ({
  page,
  context,
}) => {
  const account = newAccount();

  await test.step("sign up", async () => {
    await page.goto("/app/");
    await expect(page).toHaveURL(/\/app\/sign-in/);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/app\/scans$/);
    await expect(page.getByRole("heading", { level: 1, name: "Scans" })).toBeVisible();
    await expect(page.getByText(account.email, { exact: true })).toBeVisible();
    await expect(page.getByText("No scans yet.")).toBeVisible();
  });

  await test.step("the session cookie is HttpOnly and SameSite=Lax", async () => {
    const cookie = (await context.cookies()).find((c) => c.name === "scan_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(await page.evaluate(() => document.cookie)).not.toContain("scan_session");
  });

  await test.step("sign out, then sign in", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/app\/sign-in/);
    await expect(page.getByText("You have signed out.")).toBeVisible();
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/app\/scans$/);
  });

  let key = "";
  await test.step("create an API key and read it once", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await expect(page.getByText("No keys yet.")).toBeVisible();
    await page.getByLabel("Name").fill("reporting script");
    await page.getByLabel("Answer format").selectOption("B");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByText("It will not be shown again")).toBeVisible();
    key = await page.getByRole("textbox", { name: "New API key" }).inputValue();
    expect(key).toMatch(/^aeo_/);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
    await page.getByRole("button", { name: "I have copied it" }).click();
    // gone for good: the list shows the key's prefix only
    await expect(page.getByRole("textbox", { name: "New API key" })).toHaveCount(0);
    await expect(page.getByText(key)).toHaveCount(0);
    const row = page.getByRole("row", { name: /reporting script/ });
    await expect(row).toContainText("Form B");
    await expect(row).toContainText(key.slice(0, 8));
    await page.reload();
    await expect(page.getByRole("row", { name: /reporting script/ })).toBeVisible();
    await expect(page.getByText(key)).toHaveCount(0);
    const accepted = await fetch(`${gatewayUrl()}/api/v1/sites`, { headers: { "X-API-Key": key } });
    expect(accepted.status).toBe(200);
  });

  let reportUrl = "";
  await test.step("scan a loopback page and watch it finish", async () => {
    await page.getByRole("link", { name: "Scans", exact: true }).click();
    const started = await scanFromDashboard(page, `${siteUrl()}/guides/cold-brew`);
    await expect(started).toContainText(/Grade [A-F]/);
    await expect(page.getByRole("row", { name: /guides\/cold-brew/ })).toContainText("Done");
    await started.getByRole("link", { name: "Open the report" }).click();
    reportUrl = page.url();
  });

  await test.step("read the report", async () => {
    await expect(page).toHaveURL(/\/app\/scans\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Scan report" })).toBeVisible();
    await expect(page.locator(".grade-large")).toHaveText(/^(A\+|A|B\+|B|C|D|F)$/);
    for (const area of ["SEO", "AEO", "GEO"]) {
      await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${area}`) })).toBeVisible();
      await expect(page.getByRole("meter", { name: `${area} score` })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Served HTML and rendered page" })).toBeVisible();
    // a quick scan of a plain-HTTP page fails the HTTPS check, with its description and fix
    const https = page.locator(".check", { hasText: "Page is served over HTTPS" });
    await expect(https).toContainText("Fail");
    await expect(https).toContainText("plain HTTP");
    await expect(https).toContainText("Fix:");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download JSON" }).click(),
    ]);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    const scan = JSON.parse(readFileSync(path, "utf8"));
    expect(reportUrl).toContain(scan.id);
    expect(scan).toMatchObject({ status: "completed", mode: "quick", url: `${siteUrl()}/guides/cold-brew` });
    expect(scan.checks.length).toBe(20);
  });

  await test.step("find the site under Sites", async () => {
    await page.getByRole("link", { name: "Sites", exact: true }).click();
    await page.getByLabel("Find a site").fill("127.0.0.1");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/app\/sites\?q=127\.0\.0\.1/);
    await page.getByRole("link", { name: "127.0.0.1" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "127.0.0.1" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Score history" })).toBeVisible();
    // no audit yet: no line for the site; the scanned page on its own line
    await expect(page.getByText("No audit of the whole site yet, so no line for the site")).toBeVisible();
    await expect(
      page
        .getByRole("region", { name: "Scans of single pages" })
        .getByRole("img", { name: /^Overall score of 1 scan of / }),
    ).toBeVisible();
    await expect(page.getByText("No tracked keywords.")).toBeVisible();
    await expect(page.getByText(/No citation tracks/)).toBeVisible();
    await page.getByLabel("Engine", { exact: true }).selectOption("claude");
    await expect(page).toHaveURL(/engine=claude/);
    await page.getByLabel("Checked").selectOption("7d");
    await expect(page).toHaveURL(/range=7d/);
  });

  await test.step("delete the key and see the API refuse it", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: "Delete the key reporting script" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Requests made with it will be refused");
    // Escape cancels: nothing deleted
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("row", { name: /reporting script/ })).toBeVisible();
    await page.getByRole("button", { name: "Delete the key reporting script" }).click();
    await dialog.getByRole("button", { name: "Delete key" }).click();
    await expect(page.getByText("The key “reporting script” is deleted.")).toBeVisible();
    await expect(page.getByText("No keys yet.")).toBeVisible();
    const refused = await fetch(`${gatewayUrl()}/api/v1/sites`, { headers: { "X-API-Key": key } });
    expect(refused.status).toBe(401);
  });

  await test.step("sign out", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/app\/sign-in/);
    await page.goto("/app/settings/keys");
    await expect(page).toHaveURL(/\/app\/sign-in\?next=%2Fsettings%2Fkeys/);
  });
});
