import {
  expect,
  expectAccessible,
  expectSameOrigin,
  gatewayUrl,
  recordRequests,
  rivalSiteUrl,
  sessionToken,
  setPlan,
  signIn,
  signUpByApi,
  siteUrl,
  sql,
  test,
} from "./support/fixtures";

/**
 * A completed run's cited pages in the dashboard: the real worker asks the local Perplexity
 * server, whose answers cite a plain page of the brand's site, a competitor's page on another
 * loopback address and an address the policy refuses; by keyboard the pages are sent to be
 * scanned, then shown per prompt with their scores, the refusal with its reason, and what the
 * competitor's page passes that the brand's fails. No request leaves the gateway's origin.
 */

test("cited pages: scanned by keyboard, side by side, what a cited page has that yours lacks", async ({ browser }) => {
  const owner = await signUpByApi();
  await setPlan(owner, "starter");
  const context = await browser.newContext({ baseURL: gatewayUrl() });
  const requests = recordRequests(context);
  const page = await context.newPage();
  await signIn(page, owner);
  const auth = { Authorization: `Bearer ${await sessionToken(page)}` };
  const added = await page.request.post("/api/v1/sites", {
    headers: auth,
    data: { url: `${siteUrl()}/`, name: "Acme" },
  });
  expect(added.status(), await added.text()).toBe(201);
  const siteId = ((await added.json()).data as { id: string }).id;
  const profile = await page.request.put(`/api/v1/sites/${siteId}/visibility`, {
    headers: auth,
    data: { brand_names: ["Acme"], samples_per_prompt: 1, engines: ["perplexity"] },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  // the brand's site is a loopback address, which brand_domains refuses as an IP literal
  await sql(`UPDATE visibility_profiles SET brand_domains = ARRAY['127.0.0.1'] WHERE site_id = $1`, [siteId]);
  const rival = `${rivalSiteUrl()}/compare`;
  for (const text of [
    `Which brewing guide is best? cites: ${siteUrl()}/plain ${rival}`,
    `How do I make cold brew? cites: ${rival} http://127.0.0.3/hidden`,
  ]) {
    const prompt = await page.request.post(`/api/v1/sites/${siteId}/prompts`, { headers: auth, data: { text } });
    expect(prompt.status(), await prompt.text()).toBe(201);
  }

  await page.goto(`/app/sites/${siteId}/visibility`);
  const results = page.getByRole("region", { name: "Results", exact: true });
  await results.getByRole("button", { name: "Run now" }).click();
  const cited = results.getByRole("region", { name: "Cited pages against yours" });
  await expect(cited.getByRole("button", { name: "Scan 3 cited pages" })).toBeVisible({ timeout: 120_000 });

  // by keyboard: focus reaches the button, Enter sends the pages
  await cited.getByRole("button", { name: "Scan 3 cited pages" }).focus();
  await page.keyboard.press("Enter");
  await expect(cited.getByRole("status")).toContainText("2 of 3 pages scanned, 1 refused by the address policy.", {
    timeout: 120_000,
  });
  const coldBrew = cited.getByRole("table", { name: /How do I make cold brew/ });
  await expect(coldBrew.getByRole("row", { name: /127\.0\.0\.3/ })).toContainText("refused by the address policy");
  const theirs = coldBrew.getByRole("row", { name: /compare/ });
  await expect(theirs).toContainText(/overall \d+/);
  // the plain page of the brand lacks what the cited page has: a title, among others
  await expect(theirs.locator(".lacks li").first()).toBeVisible();
  await expect(theirs.locator(".lacks")).toContainText(/title/i);
  const best = cited.getByRole("table", { name: /Which brewing guide is best/ });
  await expect(best.getByRole("row", { name: /plain/ })).toContainText("yours");
  // the score links to the page's scan report, reachable by Tab
  await theirs.getByRole("link", { name: /overall \d+/ }).focus();
  await expect(theirs.getByRole("link", { name: /overall \d+/ })).toBeFocused();
  await expectAccessible(page, "a run's cited pages");

  await cited.screenshot({ path: "test-results/visibility-cited-pages-1280.png" });
  await page.setViewportSize({ width: 375, height: 800 });
  await cited.screenshot({ path: "test-results/visibility-cited-pages-375.png" });
  await expectAccessible(page, "a run's cited pages on a phone");

  expectSameOrigin(requests);
  await context.close();
});
