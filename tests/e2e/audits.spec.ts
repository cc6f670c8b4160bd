import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { type AuditHistory, auditApi } from "./support/audit-history";
import {
  type Account,
  auditSiteUrl,
  expect,
  expectAccessible,
  gatewayUrl,
  heldSiteUrl,
  sessionToken,
  signIn,
  signUpByApi,
  sql,
  test,
} from "./support/fixtures";

/**
 * A site's page with real audits: a loopback site audited twice through the API, the second
 * audit finding a broken link the first left out, so the site has a regression alert, delivered.
 * The page shows the history with its audit points, the audits, the alert, the schedule and a
 * report with its CSV exports; the keyboard starts an audit and follows it to its end, and
 * cancels one under way (on a site whose robots.txt is held unanswered until the test lets go).
 * axe finds nothing serious, nothing leaves the gateway's origin, nothing is wider than a phone.
 */

test.describe("a site's audits, history and alerts", () => {
  let account: Account;
  let history: AuditHistory;
  let heldSiteId: string;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    account = await signUpByApi();
    // a plan that schedules more than one site: the held site gets a schedule of its own
    await sql(`UPDATE users SET plan = 'pro' WHERE email = $1`, [account.email]);
    const page = await (await browser.newContext({ baseURL: gatewayUrl() })).newPage();
    await signIn(page, account);
    const api = auditApi(gatewayUrl(), await sessionToken(page));
    history = await api.regressedSite(auditSiteUrl());
    // a scan of one of its pages: drawn on the page's own line, never on the site's
    await api.call("/api/v1/scan", { url: `${auditSiteUrl()}/guides/ratio`, mode: "quick" });
    heldSiteId = (await api.call("/api/v1/sites", { url: `${heldSiteUrl()}/` })).id as string;
    await page.context().close();
  });

  /** Every request the page makes, and every Content-Security-Policy violation it meets. */
  const watch = async (page: Page) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const seen = window as unknown as { violations: string[] };
        seen.violations ??= [];
        seen.violations.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    return async () => {
      const origin = new URL(gatewayUrl()).origin;
      expect(requests.filter((url) => !url.startsWith("blob:") && new URL(url).origin !== origin)).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])).toEqual([]);
    };
  };

  const sitePage = async (page: Page, siteId: string, query = "") => {
    await page.goto(`/app/sites/${siteId}${query}`);
    await expect(page.getByRole("heading", { level: 1, name: "127.0.0.1" })).toBeVisible();
    await expect(page.locator(".state-loading")).toHaveCount(0);
  };

  test("shows the history with its audit points, the audits, the alert, the schedule and a report", async ({
    page,
  }) => {
    const checkOrigins = await watch(page);
    await signIn(page, account);
    await sitePage(page, history.siteId);

    // the site's line: its two audits alone, a square on each line, on a time axis
    await expect(page.getByRole("img", { name: /^Site scores of 2 audits, from / })).toBeVisible();
    await expect(page.locator(".chart svg[role=img] rect")).toHaveCount(2 * 4);
    await expect(page.locator(".chart svg[role=img] circle")).toHaveCount(0);
    // five score levels, and moments along the time axis, each reading differently
    const axis = await page.locator(".chart svg[role=img] text.axis").allTextContents();
    expect(axis.slice(0, 5)).toEqual(["0", "25", "50", "75", "100"]);
    const moments = axis.slice(5);
    expect(moments.length).toBeGreaterThanOrEqual(2);
    expect(new Set(moments).size).toBe(moments.length);
    // the scanned page on its own line
    const scanned = page.getByRole("region", { name: "Scans of single pages" });
    await expect(scanned.getByRole("img")).toHaveCount(1);
    await expect(scanned.getByRole("img")).toHaveAccessibleName(
      new RegExp(`^Overall score of 1 scan of ${auditSiteUrl()}/guides/ratio, from .*: \\d+ \\(quick\\)$`),
    );
    await expect(scanned).toContainText("/guides/ratio");
    await page.getByText("The scores as a table").click();
    const table = page.getByRole("region", { name: "Score history" });
    await expect(table.getByRole("row")).toHaveCount(1 + 3);
    await expect(table.getByRole("cell", { name: "Audit", exact: true })).toHaveCount(2);
    await expect(table.getByRole("cell", { name: "Scan", exact: true })).toHaveCount(1);
    const historyCard = page.locator('section[aria-labelledby="history-title"]');
    await historyCard.screenshot({ path: test.info().outputPath("history-1280.png") });

    const audits = page.getByRole("region", { name: "Audits", exact: true });
    await expect(audits.getByRole("row")).toHaveCount(1 + 2);
    await expect(audits.getByText("Done")).toHaveCount(2);

    const alerts = page.getByRole("region", { name: "Regression alerts" });
    await expect(alerts).toContainText(
      "Internal links lead to pages that answer (broken-internal-links) passed before",
    );
    await expect(alerts).toContainText(`${auditSiteUrl()}/old-guide`);
    await expect(alerts).toContainText(`Delivered by signed webhook to ${auditSiteUrl()}`);
    // one entry for the regressed audit, with each channel's delivery; the Slack URL masked
    await expect(alerts.locator(".alert-item")).toHaveCount(1);
    await expect(alerts).toContainText(`Delivered in Slack to ${auditSiteUrl()}/…alue`);
    await expect(alerts).not.toContainText("slacktoken");
    await alerts.screenshot({ path: test.info().outputPath("alerts-1280.png") });

    const schedule = page.getByRole("region", { name: "Audit schedule" });
    await expect(schedule).toContainText("Weekly, quick");
    await expect(schedule).toContainText(`Signed webhook to ${auditSiteUrl()}/hooks/alerts`);
    await expectAccessible(page, "site with audits and an alert");

    // the alert opens the audit that regressed; the focus goes to it
    await alerts.getByRole("link", { name: /^Open the audit that regressed/ }).click();
    await expect(page).toHaveURL(new RegExp(`audit=${history.after}`));
    await expect(page.getByRole("heading", { level: 3, name: /^Audit started/ })).toBeFocused();
    const report = page.getByRole("region", { name: /^Audit started/ });
    await expect(report.getByRole("heading", { name: "Site checks failing" })).toBeVisible();
    await expect(report).toContainText(`${auditSiteUrl()}/old-guide: linked from 1 page(s) and answers 404`);
    // the three pages that answered 200, worst first
    await expect(report.getByRole("region", { name: "Worst pages" }).getByRole("row")).toHaveCount(1 + 3);

    for (const [button, file, holds] of [
      ["Download report (CSV)", "report", "broken-internal-links"],
      ["Download pages (CSV)", "pages", `${auditSiteUrl()}/old-guide`],
    ] as const) {
      const download = page.waitForEvent("download");
      await report.getByRole("button", { name: button }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toBe(`audit-${history.after}-${file}.csv`);
      expect(readFileSync(await saved.path(), "utf8")).toContain(holds);
    }
    await expectAccessible(page, "site with an audit's report");

    // a phone: nothing wider than the screen (wide tables scroll in their own frame)
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await historyCard.screenshot({ path: test.info().outputPath("history-375.png") });
    await checkOrigins();
  });

  test("the report leads with its issues: new and persisting, filtered, a row opened to its pages", async ({
    page,
  }) => {
    const checkOrigins = await watch(page);
    await signIn(page, account);
    await sitePage(page, history.siteId, `?audit=${history.after}`);
    const report = page.getByRole("region", { name: /^Audit started/ });
    const issues = report.getByRole("region", { name: "Issues", exact: true });
    await expect(issues).toContainText("Since the previous quick audit: 1 new,");
    const rows = issues.locator(".issues > li");
    // the broken link to /old-guide: a site check, new since the audit that left /old-guide out
    const broken = rows.filter({ hasText: "Internal links lead to pages that answer" });
    await expect(broken).toContainText("New");
    await expect(broken).toContainText("critical");
    // the URL at fault and the page linking to it, of three pages judged
    await expect(broken).toContainText("2 pages, 66.7 % of the site");
    expect(await rows.filter({ hasText: "Persisting" }).count()).toBeGreaterThan(0);
    const total = await rows.count();

    // opened by the keyboard: a button that says it is expanded, its findings below
    const toggle = broken.getByRole("button", { name: /Internal links lead to pages that answer/ });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const found = broken.locator(".issue-page-list > li");
    await expect(found).toHaveCount(1);
    await expect(found).toContainText(`${auditSiteUrl()}/old-guide`);
    await expect(found).toContainText("404");
    await expect(broken.getByRole("status")).toHaveText("1 finding.");

    // a page check on every judged page: its pages, searched
    const everywhere = rows.filter({ hasText: "3 pages, 100 % of the site" }).first();
    await everywhere.locator(".issue-toggle").click();
    await expect(everywhere.locator(".issue-page-list > li")).toHaveCount(3);
    await everywhere.getByRole("searchbox").fill("GRIND");
    await page.keyboard.press("Enter");
    await expect(everywhere.locator(".issue-page-list > li")).toHaveCount(1);
    await expect(everywhere.locator(".issue-page-list > li")).toContainText(`${auditSiteUrl()}/guides/grind`);
    await expectAccessible(page, "audit report with an issue opened");
    await issues.screenshot({ path: test.info().outputPath("issues-1280.png") });

    // the worst pages name their failing checks by title, the id in the title attribute
    const failing = report.getByRole("region", { name: "Worst pages" }).locator(".failing-check");
    expect(await failing.count()).toBeGreaterThan(0);
    for (const check of await failing.all()) {
      const id = await check.getAttribute("title");
      expect(await check.textContent()).not.toBe(id);
    }

    // filtered by severity: only critical rows are left
    await issues.getByLabel("Severity").selectOption("critical");
    const critical = await rows.count();
    expect(critical).toBeGreaterThan(0);
    expect(critical).toBeLessThan(total);
    await expect(rows.locator(".badge", { hasText: /^(warning|info)$/ })).toHaveCount(0);
    await issues.getByLabel("Category").selectOption("geo");
    await issues.getByLabel("Severity").selectOption("");
    await expect(rows.locator(".issue-reach", { hasText: /· (SEO|AEO) / })).toHaveCount(0);
    await issues.getByLabel("Category").selectOption("");
    await expect(rows).toHaveCount(total);

    // a phone: URLs on one line each, cut rather than wrapped, the page no wider than the screen
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const url = broken.locator(".issue-page-list .url-line").first();
    const box = await url.boundingBox();
    const lineHeight = await url.evaluate((node) => Number.parseFloat(getComputedStyle(node).lineHeight) || 24);
    expect(box?.height ?? 0).toBeLessThanOrEqual(lineHeight * 1.5);
    for (const cell of await report.getByRole("region", { name: "Worst pages" }).locator(".url-line").all()) {
      const cellBox = await cell.boundingBox();
      expect(cellBox?.height ?? 0).toBeLessThanOrEqual(lineHeight * 1.5);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await issues.screenshot({ path: test.info().outputPath("issues-375.png") });
    await report
      .getByRole("region", { name: "Worst pages" })
      .screenshot({ path: test.info().outputPath("worst-pages-375.png") });
    await expectAccessible(page, "audit report with its issues on a phone");
    await checkOrigins();
  });

  test("keyboard only: start an audit, follow it to its end, open its report", async ({ page }) => {
    await signIn(page, account);
    await sitePage(page, history.siteId);
    await page.getByRole("radio", { name: /^Full/ }).focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("radio", { name: /^Quick/ })).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Most pages", { exact: true })).toBeFocused();
    await page.keyboard.type("3");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Start audit" })).toBeFocused();
    await page.keyboard.press("Enter");

    // the audits' live region
    const news = page.locator(".audit-news");
    await expect(news).toHaveText(/^Audit started \(quick, up to 3 pages\)/);
    // the list is asked again while the audit runs, and says when it has ended
    await expect(news).toHaveText(/has completed: grade [A-F]/, { timeout: 120_000 });
    await expect(page.getByRole("img", { name: /^Site scores of 3 audits/ })).toBeVisible();

    const newest = page.getByRole("region", { name: "Audits", exact: true }).getByRole("row").nth(1);
    await expect(newest).toContainText("Done");
    await newest.getByRole("link", { name: /^Report of the audit started/ }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 3, name: /^Audit started/ })).toBeFocused();
    await expect(page.getByRole("region", { name: /^Audit started/ })).toContainText("up to 3 pages");
  });

  test("cancel an audit under way, and set and stop a schedule", async ({ page }) => {
    await signIn(page, account);
    await sitePage(page, heldSiteId);
    try {
      await page.getByRole("button", { name: "Start audit" }).click();
      const row = page.getByRole("region", { name: "Audits", exact: true }).getByRole("row").nth(1);
      // robots.txt is held: the audit stays discovering
      await expect(row).toContainText("Discovering");
      await expect(row.getByRole("progressbar")).toBeVisible();
      const cancel = row.getByRole("button", { name: /^Cancel the audit started/ });
      await cancel.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Cancel the audit?" });
      await expect(dialog.getByRole("button", { name: "Keep it running" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(row).toContainText("Discovering");
      await cancel.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await expect(dialog.getByRole("button", { name: "Cancel audit" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page.locator(".audit-news")).toHaveText(/is cancelled/);
      // the Cancel button is gone: the focus is on the list, not lost
      await expect(page.getByRole("heading", { level: 3, name: "Audits" })).toBeFocused();
      await expect(row).toContainText("Cancelled");
    } finally {
      await fetch(`${heldSiteUrl()}/release`);
    }

    const schedule = page.getByRole("region", { name: "Audit schedule" });
    await expect(schedule).toContainText("No schedule");
    await schedule.getByLabel("How often").selectOption("daily");
    // this deployment has no SMTP server: a mail alert is refused saying what the operator must set
    await schedule.getByLabel("Mail to").fill("seo@agency.example");
    await schedule.getByRole("button", { name: "Save schedule" }).click();
    await expect(schedule.getByRole("alert")).toContainText("no SMTP server");
    await expect(schedule.getByRole("alert")).toContainText("Ask the operator to set SMTP_URL");
    await schedule.getByLabel("Mail to").fill("");
    // by keyboard: the Slack field, then the signed webhook field
    const slackUrl = `${heldSiteUrl()}/services/T0E2E/B0E2E/slacktokenvalue`;
    await schedule.getByLabel("Slack incoming webhook").focus();
    await page.keyboard.type(slackUrl);
    await page.keyboard.press("Tab");
    await expect(schedule.getByLabel("Signed webhook URL")).toBeFocused();
    await page.keyboard.type(`${heldSiteUrl()}/hooks`);
    await schedule.getByRole("button", { name: "Save schedule" }).click();
    await expect(schedule.getByRole("status")).toHaveText(/^Scheduled: daily full audits, next /);
    await expect(schedule).toContainText("Daily, full");
    await expect(schedule).toContainText(`Signed webhook to ${heldSiteUrl()}/hooks`);
    // the Slack URL is a secret: shown masked, in the summary and in the form
    await expect(schedule).toContainText(`Slack ${heldSiteUrl()}/…alue`);
    await expect(schedule.getByLabel("Slack incoming webhook")).toHaveValue(`${heldSiteUrl()}/…alue`);
    await expect(schedule).not.toContainText("slacktoken");
    await schedule.screenshot({ path: test.info().outputPath("schedule-1280.png") });
    await page.setViewportSize({ width: 375, height: 800 });
    await schedule.screenshot({ path: test.info().outputPath("schedule-375.png") });
    await page.setViewportSize({ width: 1280, height: 800 });
    // saved again unchanged, the masked value keeps the stored URL
    await schedule.getByRole("button", { name: "Save schedule" }).click();
    await expect(schedule.getByRole("status")).toHaveText(/^Schedule changed: daily full audits/);
    await expect(schedule).toContainText(`Slack ${heldSiteUrl()}/…alue`);
    await expectAccessible(page, "site with a schedule");
    await schedule.getByRole("button", { name: "Stop the schedule" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Stop the schedule" }).click();
    await expect(schedule.getByRole("status")).toHaveText("The schedule is stopped. Its audits stay.");
    await expect(schedule).toContainText("No schedule");
  });
});
