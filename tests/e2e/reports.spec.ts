import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { solidPng } from "../support/png";
import { type AuditHistory, auditApi } from "./support/audit-history";
import {
  type Account,
  auditSiteUrl,
  expect,
  expectAccessible,
  gatewayUrl,
  sessionToken,
  signIn,
  signUpByApi,
  test,
} from "./support/fixtures";

/**
 * Client reports in the dashboard: the workspace's report name and logo set on its settings
 * page (a logo uploaded from a file), the client report (PDF) and the other exports downloaded
 * from an audit's and a scan's report, and the print view the PDF is made from, in the agency's
 * name and logo. axe finds nothing serious; no request leaves the gateway's origin; each new
 * page is photographed at 1280 and 375 pixels wide.
 */

const AGENCY = "Harbour Lane Digital";
// a real PNG, 160 × 48, teal
const LOGO_PNG = solidPng(160, 48, [13, 148, 136]);

test.describe("client reports", () => {
  let account: Account;
  let history: AuditHistory;
  let scanId: string;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000);
    account = await signUpByApi();
    const page = await (await browser.newContext({ baseURL: gatewayUrl() })).newPage();
    await signIn(page, account);
    const api = auditApi(gatewayUrl(), await sessionToken(page));
    history = await api.regressedSite(auditSiteUrl(), "Cold brew guides");
    scanId = (await api.call("/api/v1/scan", { url: `${auditSiteUrl()}/guides/ratio`, mode: "quick" })).id as string;
    // the reports' tests stand alone; the settings test sets the name again through the page
    await api.call("/api/v1/branding", { agency_name: AGENCY }, "PUT");
    await page.context().close();
  });

  /** Every request the page makes, to check that none left the gateway's origin. */
  const watch = (page: Page) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    return () => {
      const origin = new URL(gatewayUrl()).origin;
      expect(requests.filter((url) => !url.startsWith("blob:") && new URL(url).origin !== origin)).toEqual([]);
    };
  };

  test("sets the agency's name and logo on the workspace page", async ({ page }) => {
    const checkOrigins = watch(page);
    await signIn(page, account);
    await page.goto("/app/settings/workspace");
    const section = page.getByRole("region", { name: "Client reports" });
    await expect(section.getByLabel("Agency name")).toBeVisible();
    // the keyboard: type the name and submit with Enter
    await expect(section.getByLabel("Agency name")).toHaveValue(AGENCY);
    await section.getByLabel("Agency name").fill(`${AGENCY} Studio`);
    await section.getByLabel("Agency name").press("Enter");
    await expect(section.getByText("The name on your reports is saved.")).toBeVisible();
    await expect(section.locator(".branding-preview")).toHaveText(`${AGENCY} Studio`);
    // a file that is not an image is refused before it is sent
    await section
      .getByLabel("Logo")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
    await expect(section.getByText("notes.txt is not a PNG or JPEG image")).toBeVisible();
    await section.getByLabel("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: LOGO_PNG });
    await expect(section.getByText("The logo is saved.")).toBeVisible();
    const logo = section.getByRole("img", { name: "Your report logo" });
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    expect(await logo.getAttribute("src")).toMatch(/^\/logos\/[A-Za-z0-9_-]{32}$/);
    await expectAccessible(page, "workspace settings with report branding");
    await section.screenshot({ path: test.info().outputPath("branding-1280.png") });
    await page.setViewportSize({ width: 375, height: 800 });
    await section.screenshot({ path: test.info().outputPath("branding-375.png") });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    checkOrigins();
  });

  test("downloads an audit's client report and exports, and shows its print view", async ({ page }) => {
    const checkOrigins = watch(page);
    await signIn(page, account);
    await page.goto(`/app/sites/${history.siteId}?audit=${history.after}`);
    const pdfButton = page.getByRole("button", { name: "Client report (PDF)" });
    await expect(pdfButton).toBeVisible();
    const download = page.waitForEvent("download");
    await pdfButton.focus();
    await page.keyboard.press("Enter");
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(`audit-${history.after}-report.pdf`);
    expect(
      readFileSync(await saved.path())
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    for (const [name, file, needle] of [
      ["Download report (SARIF)", `audit-${history.after}-report.sarif`, '"2.1.0"'],
      ["Download report (JUnit XML)", `audit-${history.after}-report.xml`, "<testsuites"],
    ] as const) {
      const next = page.waitForEvent("download");
      await page.getByRole("button", { name }).click();
      const saved = await next;
      expect(saved.suggestedFilename()).toBe(file);
      expect(readFileSync(await saved.path(), "utf8")).toContain(needle);
    }

    await page.getByRole("link", { name: "Print view" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/print/audits/${history.after}$`));
    const report = page.locator("[data-print-ready]");
    await expect(report).toBeVisible();
    await expect(report.locator(".print-agency")).toHaveText(new RegExp(`^${AGENCY}`));
    await expect(report.getByRole("img", { name: /logo$/ })).toBeVisible();
    await expect(report.getByRole("heading", { level: 1 })).toHaveText(`Site audit of ${auditSiteUrl()}/`);
    await expect(report.locator(".print-grade strong")).toHaveText(/^[A-F]$/);
    await expect(report.getByRole("term").filter({ hasText: "SEO" })).toBeVisible();
    // the issue rollup, with the regression the second audit found
    const issues = report.getByRole("region", { name: "The issues, most severe first" }).getByRole("table");
    await expect(issues.getByRole("row").filter({ hasText: "New" }).first()).toBeVisible();
    await expectAccessible(page, "audit print view");
    await page.screenshot({ path: test.info().outputPath("print-audit-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: test.info().outputPath("print-audit-375.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // printed, the toolbar is left out
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
    await page.emulateMedia({ media: "screen" });
    await page.getByRole("link", { name: "Back to the site" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/sites/${history.siteId}$`));
    checkOrigins();
  });

  test("downloads a scan's client report and exports, and shows its print view", async ({ page }) => {
    const checkOrigins = watch(page);
    await signIn(page, account);
    await page.goto(`/app/scans/${scanId}`);
    for (const [name, file, head] of [
      ["Client report (PDF)", `scan-${scanId}.pdf`, "%PDF-"],
      ["Download (CSV)", `scan-${scanId}.csv`, "url,"],
      ["Download (SARIF)", `scan-${scanId}.sarif`, "{"],
      ["Download (JUnit XML)", `scan-${scanId}.xml`, "<?xml"],
    ] as const) {
      const next = page.waitForEvent("download");
      await page.getByRole("button", { name, exact: true }).click();
      const saved = await next;
      expect(saved.suggestedFilename()).toBe(file);
      expect(
        readFileSync(await saved.path())
          .toString("utf8")
          .replace(/^\uFEFF/, "")
          .startsWith(head),
      ).toBe(true);
    }
    await page.getByRole("link", { name: "Print view" }).click();
    const report = page.locator("[data-print-ready]");
    await expect(report.getByRole("heading", { level: 1 })).toHaveText(`Page report of ${auditSiteUrl()}/guides/ratio`);
    await expect(report.locator(".print-agency")).toHaveText(new RegExp(`^${AGENCY}`));
    await expectAccessible(page, "scan print view");
    await page.screenshot({ path: test.info().outputPath("print-scan-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: test.info().outputPath("print-scan-375.png"), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    checkOrigins();
  });
});
