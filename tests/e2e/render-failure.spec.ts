import {
  expect,
  expectAccessible,
  gatewayUrl,
  scanFromDashboard,
  signIn,
  signUpByApi,
  siteUrl,
  sql,
  test,
} from "./support/fixtures";

/**
 * A scan judged on its served HTML because its render failed says so on its report: a badge in
 * the summary that leads to the served-and-rendered section, which gives the reason. Whether a
 * real render fails depends on the machine's load, so the scan's row is given the failure the
 * worker stores (tests/faults-targets.test.ts has the worker store it for a page the browser
 * cannot finish parsing); everything after the row is the real API and dashboard.
 */
test("a scan whose render failed shows a badge and the reason on its report", async ({ page }) => {
  const account = await signUpByApi();
  await signIn(page, account);
  const started = await scanFromDashboard(page, `${siteUrl()}/`);
  await started.getByRole("link", { name: "Open the report" }).click();
  await expect(page).toHaveURL(/\/app\/scans\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop() ?? "";

  await expect(page.getByRole("heading", { level: 1, name: "Scan report" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Judged on served HTML/ })).toHaveCount(0);

  await sql(`UPDATE scans SET rendered = false, render_failure = 'parse_unfinished' WHERE id = $1`, [id]);
  await page.reload();
  const badge = page.getByRole("link", { name: "Judged on served HTML: the render failed" });
  await expect(badge).toBeVisible();
  await badge.click();
  await expect(page).toHaveURL(new RegExp(`${gatewayUrl()}/app/scans/${id}#served-title$`));
  const section = page.locator("section", {
    has: page.getByRole("heading", { name: "Served HTML and rendered page" }),
  });
  await expect(section).toContainText("the render failed");
  await expect(section).toContainText("had not finished parsing the page in time");
  await expectAccessible(page, "report of a scan whose render failed");
});
