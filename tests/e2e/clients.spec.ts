import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNarrow,
  expectSameOrigin,
  gatewayUrl,
  pageHeading as heading,
  recordRequests,
  sessionToken,
  signIn,
  signUpByApi,
  siteUrl,
  sql,
  test,
} from "./support/fixtures";

/**
 * An agency's clients in the dashboard: a client added by keyboard only on the Workspace page,
 * a site assigned to it from the Sites page, a scan of that site counted against the client's
 * quota, the quota changed; an API key limited to the client and read-only, listed so; the client
 * not deleted while that key lives (the API's 409 in the dialog); the audit log listing those
 * changes newest first, filtered by action, and paged by "Load more". Axe on each state, no
 * request to another origin, nothing wider than a 375 px screen.
 */

const CLIENT = "Acme Coffee";
const SITE_NAME = "Acme roastery";

const clientRow = (page: Page) =>
  page.getByRole("region", { name: "Client list", exact: true }).getByRole("row", { name: new RegExp(CLIENT) });
const nav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name, exact: true });
const logTable = (page: Page) => page.getByRole("region", { name: "Audit log entries", exact: true });

test("a client: added by keyboard, a site assigned, usage against its quota, a limited read-only key, the audit log", async ({
  browser,
}, testInfo) => {
  const owner = await signUpByApi();
  // an agency's plan: more changes an hour than the free plan's ten, which the audit log's second page needs
  await sql(`UPDATE users SET plan = 'agency' WHERE email = $1`, [owner.email]);
  await sql(`UPDATE workspaces SET plan = 'agency' WHERE name = $1`, [owner.email]);
  const context = await browser.newContext({ baseURL: gatewayUrl() });
  const requests = recordRequests(context);
  const page = await context.newPage();
  await signIn(page, owner);
  const token = await sessionToken(page);
  const headers = { Authorization: `Bearer ${token}` };
  const added = await page.request.post("/api/v1/sites", { headers, data: { url: `${siteUrl()}/`, name: SITE_NAME } });
  expect(added.status(), await added.text()).toBe(201);
  const siteId = ((await added.json()) as { data: { id: string } }).data.id;

  // keyboard only: the client's name, its scan, audit and audit page quotas, its notes, then Add client
  await page.goto("/app/settings/workspace");
  await expect(heading(page, owner.email)).toBeVisible();
  await expect(page.getByText("No clients yet.")).toBeVisible();
  await page.getByLabel("Client name").focus();
  await page.keyboard.type(CLIENT);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Scans a month")).toBeFocused();
  await page.keyboard.type("5");
  await page.keyboard.press("Tab");
  await page.keyboard.type("2");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Audit pages a month")).toBeFocused();
  await page.keyboard.type("50");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Notes")).toBeFocused();
  await page.keyboard.type("Retainer until June");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Add client" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText(`The client ${CLIENT} is added.`)).toBeVisible();
  await expect(clientRow(page)).toContainText("Retainer until June");
  await expect(clientRow(page).getByRole("cell")).toHaveText([
    `${CLIENT}Retainer until June`,
    "0",
    "0 of 5",
    "0 of 2",
    "0 of 50",
    /Change/,
  ]);
  // a second client of the same name is the API's 409, said under the form
  await page.getByLabel("Client name").fill(CLIENT);
  await page.getByRole("button", { name: "Add client" }).click();
  await expect(page.getByRole("alert")).toContainText(/already/i);
  await page.getByLabel("Client name").fill("");
  await expectAccessible(page, "workspace with a client");

  // Sites: the site's client chosen in its row, then Assign
  await nav(page, "Sites").click();
  await expect(heading(page, "Sites")).toBeVisible();
  const select = page.getByLabel(`Client of ${SITE_NAME}`);
  await expect(select).toHaveValue("");
  await expect(page.getByRole("button", { name: `Assign ${SITE_NAME}` })).toBeDisabled();
  await select.selectOption({ label: CLIENT });
  await page.getByRole("button", { name: `Assign ${SITE_NAME}` }).click();
  await expect(page.getByText(`The site “${SITE_NAME}” is assigned to ${CLIENT}.`)).toBeVisible();
  await expect(page.getByLabel(`Client of ${SITE_NAME}`)).toHaveValue(/.+/);
  const site = await page.request.get(`/api/v1/sites/${siteId}`, { headers });
  expect(((await site.json()) as { data: { client_id: string | null } }).data.client_id).not.toBeNull();
  await expectAccessible(page, "sites with a client column");
  await page.screenshot({ path: testInfo.outputPath("sites-client.png") });

  // a scan of the client's site counts for it
  const scan = await page.request.post("/api/v1/scan", { headers, data: { url: `${siteUrl()}/`, mode: "quick" } });
  expect([200, 202], await scan.text()).toContain(scan.status());

  // its quota changed from its row; the form opens focused on the name
  await nav(page, "Workspace").click();
  await expect(clientRow(page).getByRole("cell").nth(1)).toHaveText("1");
  await expect(clientRow(page).getByRole("cell").nth(2)).toHaveText("1 of 5");
  await page.getByRole("button", { name: `Change ${CLIENT}` }).click();
  await expect(page.getByLabel("Client name")).toBeFocused();
  await expect(page.getByLabel("Client name")).toHaveValue(CLIENT);
  await page.getByLabel("Scans a month").fill("10");
  await page.getByLabel("Audits a month").fill("");
  await page.getByRole("button", { name: "Save client" }).click();
  await expect(page.getByText(`The client ${CLIENT} is saved.`)).toBeVisible();
  await expect(clientRow(page).getByRole("cell").nth(2)).toHaveText("1 of 10");
  await expect(clientRow(page).getByRole("cell").nth(3)).toHaveText("0 (no quota)");

  // a key limited to the client and read-only, listed as such
  await nav(page, "API keys").click();
  await expect(heading(page, "API keys")).toBeVisible();
  await page.getByLabel("Name").fill("Acme reporting");
  await page.getByLabel("Limit to client").selectOption({ label: CLIENT });
  await page.getByLabel("Read-only").check();
  await expectAccessible(page, "keys, a limited read-only key about to be made");
  await page.getByRole("button", { name: "Create key" }).click();
  const keyValue = await page.getByLabel("New API key").inputValue();
  await page.getByRole("button", { name: "I have copied it" }).click();
  const keyRow = page.getByRole("region", { name: "API keys" }).getByRole("row", { name: /Acme reporting/ });
  await expect(keyRow).toContainText(`${CLIENT} only, read-only`);
  await page.screenshot({ path: testInfo.outputPath("keys-client.png") });
  // the API holds the key to that: a write is refused as read-only
  const refused = await page.request.post("/api/v1/scan", {
    headers: { Authorization: `Bearer ${keyValue}` },
    data: { url: `${siteUrl()}/`, mode: "quick" },
  });
  expect(refused.status()).toBe(403);

  // the client is not deleted while the key is limited to it: the API's reason in the dialog
  await nav(page, "Workspace").click();
  await page.getByRole("button", { name: `Delete ${CLIENT}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Delete client" }).click();
  await expect(dialog.getByRole("alert")).toContainText("1 live API key is limited to this client");
  await expect(dialog.getByRole("alert")).toContainText("Revoke the client's keys");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(clientRow(page)).toBeVisible();

  // the audit log: newest first, these changes with their actor and fields
  const log = logTable(page);
  await expect(log.getByRole("row").nth(1)).toContainText("Key created");
  await expect(log.getByRole("row").nth(1)).toContainText(owner.email);
  await expect(log.getByRole("row").nth(1)).toContainText("read_only: true");
  await expect(log.getByRole("row").nth(2)).toContainText("Client changed");
  await expect(log.getByRole("row").nth(2)).toContainText("scan_quota: 5 → 10");
  await expect(log.getByRole("row").nth(1)).toContainText(`client_id: ${CLIENT}`);
  await expect(log.getByRole("row").nth(3)).toContainText("Site assigned");
  await expect(log.getByRole("row").nth(3)).toContainText(`client_id: none → ${CLIENT}`);
  await expect(log.getByRole("row").nth(4)).toContainText("Client created");
  await expect(log.getByRole("row").nth(5)).toContainText("Site created");
  await expectAccessible(page, "workspace with clients and the audit log");
  await page.screenshot({ path: testInfo.outputPath("workspace-clients.png"), fullPage: true });
  // filtered by action
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Key created" });
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log.getByRole("row").nth(1)).toContainText("Acme reporting");
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Every action" });

  // more than a page: "Load more" follows the cursor to the oldest entry
  for (let n = 1; n <= 20; n += 1) {
    const renamed = await page.request.patch(`/api/v1/sites/${siteId}`, { headers, data: { name: `Roastery ${n}` } });
    expect(renamed.status(), await renamed.text()).toBe(200);
  }
  // the log read when the page opened; "Show the latest" asks again
  await page.getByRole("button", { name: "Show the latest" }).click();
  await expect(log.getByRole("row")).toHaveCount(21);
  await expect(log.getByRole("row").nth(1)).toContainText("name: Roastery 19 → Roastery 20");
  await expect(log.getByText("Site created")).toHaveCount(0);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(log.getByRole("row")).toHaveCount(26);
  await expect(log.getByRole("row").nth(25)).toContainText("Site created");
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);

  expectSameOrigin(requests);
  await context.close();
});

test("at phone width (375 px): the clients, the audit log and the key form fit the screen", async ({
  browser,
}, testInfo) => {
  const owner = await signUpByApi();
  const context = await browser.newContext({ baseURL: gatewayUrl(), viewport: { width: 375, height: 740 } });
  const requests = recordRequests(context);
  const page = await context.newPage();
  await signIn(page, owner);
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const made = await page.request.post("/api/v1/clients", {
    headers,
    data: { name: CLIENT, notes: "Retainer until June", scan_quota: 500 },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto("/app/settings/workspace");
  await expect(clientRow(page)).toContainText("0 of 500");
  await expect(logTable(page).getByRole("row").nth(1)).toContainText("Client created");
  await expectNarrow(page, "workspace with clients");
  await expectAccessible(page, "workspace with clients at 375 px");
  await page.getByRole("heading", { name: "Clients" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("phone-workspace-clients.png") });
  await page.goto("/app/settings/keys");
  await expect(page.getByLabel("Limit to client").locator("option")).toHaveText([
    "No limit: the whole workspace",
    CLIENT,
  ]);
  await expect(page.getByText("No keys yet.")).toBeVisible();
  await expectNarrow(page, "keys");
  await page.screenshot({ path: testInfo.outputPath("phone-keys-client.png"), fullPage: true });
  await page.goto("/app/sites");
  await expectNarrow(page, "sites");
  expectSameOrigin(requests);
  await context.close();
});

test("API keys: each key's scans and audits this month, and a deleted key's", async ({ browser }, testInfo) => {
  const owner = await signUpByApi();
  const context = await browser.newContext({ baseURL: gatewayUrl() });
  const requests = recordRequests(context);
  const page = await context.newPage();
  await signIn(page, owner);
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const keyNamed = async (name: string) => {
    const made = await page.request.post("/api/v1/keys", { headers, data: { name } });
    expect(made.status(), await made.text()).toBe(201);
    return ((await made.json()) as { data: { id: string; key: string } }).data;
  };
  const ci = await keyNamed("CI");
  const old = await keyNamed("Old script");
  await keyNamed("Unused");
  for (const [key, path] of [
    [ci, "/"],
    [ci, "/menu"],
    [old, "/"],
  ] as const) {
    const scan = await page.request.post("/api/v1/scan", {
      headers: { Authorization: `Bearer ${key.key}` },
      data: { url: `${siteUrl()}${path}`, mode: "quick" },
    });
    expect([200, 202], await scan.text()).toContain(scan.status());
  }
  // a session's scan counts for no key
  const own = await page.request.post("/api/v1/scan", { headers, data: { url: `${siteUrl()}/about`, mode: "quick" } });
  expect([200, 202], await own.text()).toContain(own.status());
  expect((await page.request.delete(`/api/v1/keys/${old.id}`, { headers })).status()).toBe(200);

  await page.goto("/app/settings/keys");
  const keys = page.getByRole("region", { name: "API keys" });
  await expect(keys.getByRole("columnheader", { name: "This month" })).toBeVisible();
  await expect(keys.getByRole("row", { name: /CI/ })).toContainText("2 scans, 0 audits");
  await expect(keys.getByRole("row", { name: /Unused/ })).toContainText("0 scans, 0 audits");
  await expect(keys.getByRole("row", { name: /Old script/ })).toHaveCount(0);
  await expect(page.getByText("Deleted keys this month: Old script 1 scan, 0 audits.")).toBeVisible();
  await expectAccessible(page, "keys with this month's use");
  await page.screenshot({ path: testInfo.outputPath("keys-usage.png"), fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNarrow(page, "keys with this month's use");
  await page.screenshot({ path: testInfo.outputPath("phone-keys-usage.png"), fullPage: true });
  expectSameOrigin(requests);
  await context.close();
});
