import { expect, newAccount, scanFromDashboard, siteUrl, test } from "../tests/e2e/support/fixtures";

const OUT = "/tmp/lockout-shots";

test("screenshots of the changed pages", async ({ page }) => {
  test.setTimeout(180_000);
  const account = newAccount();
  await page.goto("/app/sign-up");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/app\/scans$/);
  const started = await scanFromDashboard(page, `${siteUrl()}/guides/cold-brew`);
  await started.getByRole("link", { name: "Open the report" }).click();
  await expect(page.locator(".grade-large")).toBeVisible();
  const report = page.url();
  await page.goto("/app/scans");
  for (let n = 0; n < 9; n += 1) {
    await page.getByLabel("Page URL").fill(`${siteUrl()}/?n=${n}`);
    await page.getByRole("button", { name: "Scan", exact: true }).click();
    await expect(page.locator(".started")).toHaveCount(n + 1);
    await expect(page.locator(".started").first().getByRole("status")).toHaveText("Done.", { timeout: 45_000 });
  }
  await page.getByLabel("Page URL").fill(`${siteUrl()}/?over`);
  await page.getByRole("button", { name: "Scan", exact: true }).click();
  await expect(page.locator(".form-error")).toBeVisible();
  for (const [name, width, height] of [["desktop", 1280, 800], ["phone", 375, 800]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${OUT}/scans-refused-${name}.png`, fullPage: false });
    await page.goto("/app/settings/account");
    await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
    await expect(page.locator(".use").first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/account-${name}.png`, fullPage: true });
    await page.goto("/app/scans/7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11");
    await expect(page.getByText("This scan cannot be shown.")).toBeVisible();
    await page.screenshot({ path: `${OUT}/report-missing-${name}.png` });
    await page.goto(report);
    await expect(page.locator(".grade-large")).toBeVisible();
    await page.screenshot({ path: `${OUT}/report-${name}.png` });
    await page.goto("/app/scans");
    await page.getByLabel("Page URL").fill(`${siteUrl()}/?over`);
    await page.getByRole("button", { name: "Scan", exact: true }).click();
    await expect(page.locator(".form-error")).toBeVisible();
  }
});
