import { readFileSync } from "node:fs";
import {
  expect,
  expectAccessible,
  expectSameOrigin,
  gatewayUrl,
  recordRequests,
  region as section,
  sessionToken,
  setPlan,
  signIn,
  signUpByApi,
  siteUrl,
  test,
} from "./support/fixtures";

/**
 * A site's AI visibility results in the dashboard, against the real worker asking local servers
 * that speak the OpenAI and Anthropic wire formats: Run now without prompts is refused with the
 * reason shown; with prompts the run's progress shows while it is under way, then each engine's
 * rates with their intervals, share of voice and the cited sources with the brand's own marked;
 * the runs on a time axis with their table; the answers, one engine at a time, with the brand's
 * mentions in <mark> and its cited page marked; a second run started from a page that still
 * shows the first is refused (409) with the reason, and the next run compared with the first. No request leaves the gateway's origin.
 */

test("Run now, progress, rates with intervals, runs over time, answers with citations marked", async ({ browser }) => {
  const owner = await signUpByApi();
  // Starter: a monthly visibility budget (a Free workspace's is 0) and writes enough for the walk
  await setPlan(owner, "starter");
  const context = await browser.newContext({ baseURL: gatewayUrl() });
  const requests = recordRequests(context);
  const page = await context.newPage();
  await signIn(page, owner);
  const token = await sessionToken(page);
  const auth = { Authorization: `Bearer ${token}` };
  const added = await page.request.post("/api/v1/sites", {
    headers: auth,
    data: { url: `${siteUrl()}/`, name: "Acme" },
  });
  expect(added.status(), await added.text()).toBe(201);
  const siteId = ((await added.json()).data as { id: string }).id;
  const profile = await page.request.put(`/api/v1/sites/${siteId}/visibility`, {
    headers: auth,
    data: { brand_names: ["Acme"], brand_domains: ["acme.com"], samples_per_prompt: 2, engines: ["chatgpt", "claude"] },
  });
  expect(profile.status(), await profile.text()).toBe(200);

  await page.goto(`/app/sites/${siteId}/visibility`);
  const results = section(page, "Results");
  await expect(results.getByText("No run yet.")).toBeVisible();

  // no prompts: refused, and the page says why
  await results.getByRole("button", { name: "Run now" }).click();
  await expect(results.getByRole("alert")).toContainText("Nothing to run yet.");

  // the slow prompt's answers take ten seconds: the run is seen under way
  for (const text of ["scenario:slow Which tracker suits a small team?", "What is the cheapest project tracker?"]) {
    const prompt = await page.request.post(`/api/v1/sites/${siteId}/prompts`, { headers: auth, data: { text } });
    expect(prompt.status(), await prompt.text()).toBe(201);
  }
  const competitor = await page.request.post(`/api/v1/sites/${siteId}/competitors`, {
    headers: auth,
    data: { name: "Globex" },
  });
  expect(competitor.status(), await competitor.text()).toBe(201);
  await page.reload();
  await results.getByRole("button", { name: "Run now" }).click();
  const latest = results.getByRole("region", { name: /^Latest run/ });
  await expect(latest.locator(".run-progress")).toContainText(/of 8 answers in/);
  await expect(latest.locator(".run-progress .badge")).toHaveText(/Queued|Running/);
  await expect(results.getByRole("button", { name: "Run now" })).toBeDisabled();
  await expectAccessible(page, "a visibility run under way");

  // ended: every answer in, the rates with their intervals
  await expect(latest.locator(".run-progress")).toContainText("8 of 8 answers in, 0 failed", { timeout: 120_000 });
  await expect(latest.locator(".run-progress .badge")).toHaveText("Done");
  const rates = latest.getByRole("table", { name: /Rates per engine/ });
  for (const engine of ["ChatGPT", "Claude"]) {
    const row = rates.getByRole("row", { name: new RegExp(`^${engine}`) });
    // every answer names Acme: 4 of 4, the Wilson interval's low end below 100 %
    await expect(row.getByRole("cell").first()).toContainText(/100 % \(\d+–100 %\) of 4 answers/);
  }
  await expect(latest.getByText("No earlier completed run to compare with.")).toBeVisible();
  await expect(latest.locator(".bar-list")).toContainText("Acme");
  await expect(latest.locator(".bar-list")).toContainText("Globex");
  await expect(latest.locator(".sources li.own").first()).toContainText("acme.com");
  await expect(results.getByRole("button", { name: "Run now" })).toBeEnabled();

  // the run's client report (PDF) and its answers (CSV), saved with the session's JWT
  for (const [name, suffix, head] of [
    ["Client report (PDF)", ".pdf", "%PDF-"],
    ["Download answers (CSV)", "-samples.csv", "\uFEFFprompt"],
  ] as const) {
    const download = page.waitForEvent("download");
    await latest.getByRole("button", { name }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(
      new RegExp(`^visibility-run-[0-9a-f-]{36}${suffix.replace(".", "\\.")}$`),
    );
    expect(
      readFileSync(await saved.path())
        .toString("utf8")
        .slice(0, head.length),
    ).toBe(head);
  }

  // over time: a chart per rate, with the same numbers as a table
  const overTime = results.getByRole("region", { name: "Over time" });
  await expect(overTime.getByRole("img", { name: /Brand mentioned per engine over 1 run/ })).toBeVisible();
  await overTime.getByText("The runs as a table").click();
  await expect(overTime.getByRole("table", { name: /Rates per run/ })).toContainText("of 4 answers");

  // the answers: one engine at a time, the brand marked in the text and among the citations
  const answers = results.getByRole("region", { name: /^Answers of the run/ });
  await answers.getByRole("link", { name: "Claude" }).click();
  await expect(page).toHaveURL(/engine=claude/);
  await expect(answers.getByRole("article")).toHaveCount(4);
  await expect(answers.getByRole("article").filter({ hasText: "ChatGPT" })).toHaveCount(0);
  const answer = answers.getByRole("article").first();
  await expect(answer.locator(".answer-text mark").first()).toHaveText("Acme");
  await expect(answer.locator(".sources li.own")).toContainText("acme.com");
  await expect(answer.locator(".sources li.own")).toContainText("the brand's page");
  await expectAccessible(page, "a visibility run's results and answers");

  // a second run, started here while another tab still shows the first as the latest: that tab
  // is refused (409) and says why
  const other = await context.newPage();
  await other.goto(`/app/sites/${siteId}/visibility`);
  const otherResults = section(other, "Results");
  await expect(otherResults.getByRole("button", { name: "Run now" })).toBeEnabled();
  await results.getByRole("button", { name: "Run now" }).click();
  await expect(latest.locator(".run-progress .badge")).toHaveText(/Queued|Running/);
  await otherResults.getByRole("button", { name: "Run now" }).click();
  await expect(otherResults.getByRole("alert")).toContainText("A run of this site is already under way.");
  await other.close();
  await expect(latest.locator(".run-progress .badge")).toHaveText("Done", { timeout: 120_000 });
  // the same answers again: no change the test of two proportions would call significant
  await expect(rates.getByText("no significant change").first()).toBeVisible();
  await expect(overTime.getByRole("img", { name: /Brand cited per engine over 2 runs/ })).toBeVisible();

  await page.screenshot({ path: "test-results/visibility-runs-1280.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: "test-results/visibility-runs-375.png", fullPage: true });
  await expectAccessible(page, "a visibility run's results on a phone");

  expectSameOrigin(requests);
  await context.close();
});
