import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  gatewayUrl,
  makeOperator,
  signIn,
  signUpByApi,
  siteUrl,
  test,
} from "./support/fixtures";

/**
 * Sites, keywords and citation tracks managed in the dashboard alone: a refused address is
 * explained under the form; a site is added, renamed and deleted; a keyword and a citation track
 * are added, reworded and deleted, the deletes confirmed in a dialog by keyboard. Every state is
 * checked by axe, and no request leaves the gateway's origin.
 */

const collectRequests = (page: Page) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  return () => {
    const origin = new URL(gatewayUrl()).origin;
    return requests.filter((url) => !url.startsWith("blob:") && new URL(url).origin !== origin);
  };
};

test("a site, a keyword and a citation track are added, renamed and removed in the dashboard", async ({ page }) => {
  const foreign = collectRequests(page);
  await signIn(page, await signUpByApi());

  // a site: an address the scanner may not reach is refused with the API's reason
  await page.getByRole("link", { name: "Sites" }).click();
  await expect(page.getByText("No sites yet.")).toBeVisible();
  const address = page.getByLabel("Address");
  await address.fill("http://10.0.0.7/admin");
  await page.getByRole("button", { name: "Add site" }).click();
  await expect(page.getByRole("alert")).toContainText(
    /url is not scannable: 10\.0\.0\.7 is a private or reserved address .*\. Scan a public http\(s\) address/,
  );
  await expectAccessible(page, "sites, address refused");

  await address.fill(`${siteUrl()}/some/page`);
  await page.getByLabel("Name").fill("Client A");
  await page.getByRole("button", { name: "Add site" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The site “Client A” is added." })).toBeVisible();
  await page.getByRole("link", { name: "Client A" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Client A" })).toBeVisible();

  // renamed from a dialog, by keyboard: the field has the focus, Enter saves
  await page.getByRole("button", { name: "Rename" }).click();
  const rename = page.getByRole("dialog", { name: "Rename “Client A”" });
  await expect(rename.getByLabel("Name")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Client B");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Client B" })).toBeVisible();
  await expect(page.getByText("The site is renamed “Client B”.")).toBeVisible();

  // a keyword: tracked, reworded, deleted
  const keywords = page.getByRole("region", { name: "Keywords" });
  await expect(keywords.getByText("No tracked keywords.")).toBeVisible();
  const track = keywords.getByRole("form", { name: "Track a keyword" });
  await track.getByLabel("Keyword").fill("Best  CRM");
  await track.getByLabel("Position").fill("4");
  await track.getByLabel("Volume").fill("1900");
  await track.getByRole("button", { name: "Track keyword" }).click();
  await expect(keywords.getByText("“best crm” is tracked.")).toBeVisible();
  const keywordRow = keywords.getByRole("row", { name: /best crm/ });
  await expect(keywordRow).toContainText("1,900");
  await keywords.getByRole("button", { name: "Reword “best crm”" }).click();
  const reword = page.getByRole("dialog", { name: "Reword “best crm”" });
  await reword.getByLabel("Keyword").fill("best crm tools");
  await reword.getByRole("button", { name: "Save keyword" }).click();
  await expect(keywords.getByText("“best crm” is now “best crm tools”.")).toBeVisible();
  await expect(keywords.getByRole("cell", { name: "best crm tools", exact: true })).toBeVisible();

  await keywords.getByRole("button", { name: "Delete “best crm tools”" }).click();
  const stopTracking = page.getByRole("dialog", { name: "Stop tracking “best crm tools”?" });
  await expect(stopTracking).toContainText("Its recorded position, volume, difficulty and trend are deleted with it.");
  // the safe choice has the focus; Escape leaves everything as it was
  await expect(stopTracking.getByRole("button", { name: "Keep it" })).toBeFocused();
  await expectAccessible(page, "site, keyword delete asked");
  await page.keyboard.press("Escape");
  await expect(stopTracking).toBeHidden();
  await expect(keywords.getByRole("cell", { name: "best crm tools", exact: true })).toBeVisible();
  await keywords.getByRole("button", { name: "Delete “best crm tools”" }).click();
  await page.keyboard.press("Tab");
  await expect(stopTracking.getByRole("button", { name: "Delete keyword" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(keywords.getByText("“best crm tools” is no longer tracked.")).toBeVisible();
  await expect(keywords.getByText("No tracked keywords.")).toBeVisible();

  // a citation track: recorded, corrected, deleted
  const citations = page.getByRole("region", { name: "Citation tracks" });
  const record = citations.getByRole("form", { name: "Record what an engine answered" });
  await record.getByLabel("Question asked").fill("best crm?");
  await record.getByLabel("Engine asked").selectOption("claude");
  await record.getByLabel("The answer cited this site").check();
  await record.getByRole("button", { name: "Record answer" }).click();
  // cited needs the page: the browser asks for it before anything is sent
  await expect(record.getByLabel("Page cited", { exact: true })).toBeFocused();
  await record.getByLabel("Page cited", { exact: true }).fill(`${siteUrl()}/crm`);
  await record.getByRole("button", { name: "Record answer" }).click();
  await expect(citations.getByText("The answer of Claude to “best crm?” is recorded.")).toBeVisible();
  const trackRow = citations.getByRole("row", { name: /best crm\?/ });
  await expect(trackRow).toContainText("Cited");
  await expect(trackRow).toContainText("Claude");
  await expectAccessible(page, "site, with a keyword form and a citation track");

  await citations.getByRole("button", { name: "Correct the question “best crm?” (Claude)" }).click();
  const correct = page.getByRole("dialog", { name: "Correct the question" });
  await correct.getByLabel("Question asked").fill("best crm for startups?");
  await correct.getByRole("button", { name: "Save question" }).click();
  await expect(citations.getByText("The question now reads “best crm for startups?”.")).toBeVisible();
  await expect(citations.getByRole("cell", { name: "best crm for startups?", exact: true })).toBeVisible();

  await citations.getByRole("button", { name: "Delete the track “best crm for startups?” (Claude)" }).click();
  const deleteTrack = page.getByRole("dialog", { name: "Delete this citation track?" });
  await deleteTrack.getByRole("button", { name: "Delete track" }).click();
  await expect(citations.getByText(/The track of “best crm for startups\?” \(Claude\) is deleted\./)).toBeVisible();
  await expect(citations.getByText(/No citation tracks for all engines/)).toBeVisible();

  // the site: its delete says what goes with it, and the list no longer shows it
  await page.getByRole("button", { name: "Delete site" }).click();
  const deleteSite = page.getByRole("dialog", { name: "Delete the site “Client B”?" });
  await expect(deleteSite).toContainText("Its keywords, citation tracks, audits with their reports");
  await expect(deleteSite).toContainText("Your scans of its pages stay in Scans.");
  await expectAccessible(page, "site, delete asked");
  await deleteSite.getByRole("button", { name: "Delete site" }).click();
  await expect(page).toHaveURL(/\/app\/sites$/);
  await expect(page.getByText("The site “Client B” is deleted, with what was recorded for it.")).toBeVisible();
  await expect(page.getByText("No sites yet.")).toBeVisible();
  await expectAccessible(page, "sites, after a delete");

  expect(foreign()).toEqual([]);
});

test("the Operations chart has named axes with their ticks and a legend of one line per series", async ({ page }) => {
  const foreign = collectRequests(page);
  const operator = await signUpByApi();
  await makeOperator(operator);
  await signIn(page, operator);
  await page.getByRole("link", { name: "Operations" }).click();
  const chart = page.locator("figure.throughput");
  const svg = chart.getByRole("img", {
    name: /^Scans finished per minute over the last hour: \d+ done and \d+ failed/,
  });
  await expect(svg).toBeVisible();
  await expect(svg.locator("text", { hasText: "Scans per minute" })).toHaveCount(1);
  await expect(svg.locator("text", { hasText: "Minute finished (your time)" })).toHaveCount(1);
  // the count axis starts at 0; the time axis reads clock times (hh:mm)
  await expect(svg.locator("text.axis").filter({ hasText: /^0$/ })).toHaveCount(1);
  expect(
    await svg
      .locator("text.axis")
      .filter({ hasText: /^\d{1,2}:\d{2}/ })
      .count(),
  ).toBeGreaterThanOrEqual(3);

  const legend = chart.getByRole("list", { name: "Legend" });
  await expect(legend.getByRole("listitem")).toHaveText([/^Done: \d+$/, /^Failed: \d+$/]);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const items = await legend.getByRole("listitem").evaluateAll((nodes) =>
      nodes.map((node) => {
        const box = node.getBoundingClientRect();
        return { height: box.height, lineHeight: Number.parseFloat(getComputedStyle(node).lineHeight), top: box.top };
      }),
    );
    // each entry on a single line, and both on the same row
    for (const item of items) expect(item.height).toBeLessThan(item.lineHeight * 1.5);
    expect(new Set(items.map((item) => Math.round(item.top))).size).toBe(1);
  }
  await expectAccessible(page, "operations");
  expect(foreign()).toEqual([]);
});

test("a site's keywords are imported from Search Console's queries export", async ({ page }) => {
  const foreign = collectRequests(page);
  await signIn(page, await signUpByApi());
  await page.getByRole("link", { name: "Sites" }).click();
  await page.getByLabel("Address").fill(siteUrl());
  await page.getByLabel("Name").fill("Client C");
  await page.getByRole("button", { name: "Add site" }).click();
  await page.getByRole("link", { name: "Client C" }).click();
  const keywords = page.getByRole("region", { name: "Keywords" });
  await expect(keywords.getByText("No tracked keywords.")).toBeVisible();

  // a faulty file is refused naming its row and stores nothing; then a file is chosen and sent by keyboard
  const importing = keywords.getByRole("form", { name: "Import keywords from Search Console" });
  await importing
    .getByLabel("Or paste the CSV")
    .fill("Top queries,Clicks,Impressions,CTR,Position\ncrm for agencies,50,20,250%,3");
  await importing.getByRole("button", { name: "Import keywords" }).click();
  const refused = importing.getByRole("alert");
  await expect(refused).toContainText("Nothing was imported");
  await expect(refused.getByRole("listitem")).toHaveText(["row 2: clicks (50) exceed impressions (20)"]);
  await expect(keywords.getByText("No tracked keywords.")).toBeVisible();
  await importing.getByLabel("Or paste the CSV").fill("");
  await importing.getByLabel("CSV file").setInputFiles({
    name: "Queries.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "\uFEFFTop queries,Clicks,Impressions,CTR,Position\r\ncrm for agencies,50,2000,2.5%,3.4\r\nCRM  for Agencies,1,5,20%,9\r\n",
    ),
  });
  await importing.getByLabel("CSV file").focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(importing.getByRole("button", { name: "Import keywords" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(keywords.getByText(/^Read 2 queries: 1 newly tracked, 0 updated, 1 skipped \(row 3: /)).toBeVisible();
  const imported = keywords.getByRole("row", { name: /crm for agencies/ });
  await expect(imported).toContainText("2,000");
  await expect(imported).toContainText("new");
  await expectAccessible(page, "site, keywords imported from Search Console");
  await keywords.getByRole("button", { name: "Delete “crm for agencies”" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete keyword" }).click();
  await expect(keywords.getByText("No tracked keywords.")).toBeVisible();
  expect(foreign()).toEqual([]);
});
