import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectSameOrigin,
  gatewayUrl,
  pageHeading as h1,
  recordRequests,
  region as section,
  sessionToken,
  setPlan,
  signIn,
  signUpByApi,
  siteUrl,
  sql,
  test,
} from "./support/fixtures";

/**
 * A site's AI visibility configuration in the dashboard: a user sets the profile by keyboard,
 * adds a prompt, imports a CSV with a faulty row (refused whole, the row named, nothing added),
 * imports it corrected, adds competitors up to the plan's limit (the refusal shown) and removes
 * one; sets and removes a workspace engine key. A viewer of the workspace reads it all and is
 * offered no write. No request leaves the gateway's origin.
 */

/** Tab until `target` has the focus: the keyboard's own path, bounded. */
const tabTo = async (page: Page, target: ReturnType<Page["getByLabel"]>) => {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
};

test("profile, prompts with a CSV import, competitors to the plan's limit, engine keys; a viewer reads", async ({
  browser,
}) => {
  const owner = await signUpByApi();
  const viewer = await signUpByApi();
  const ownerContext = await browser.newContext({ baseURL: gatewayUrl() });
  const viewerContext = await browser.newContext({ baseURL: gatewayUrl() });
  const requests = [ownerContext, viewerContext].map(recordRequests);
  // Starter: writes enough for the walk (the free plan allows 10 an hour), five competitors a site
  await setPlan(owner, "starter");
  const page = await ownerContext.newPage();
  await signIn(page, owner);
  const token = await sessionToken(page);
  const added = await page.request.post("/api/v1/sites", {
    headers: { Authorization: `Bearer ${token}` },
    data: { url: `${siteUrl()}/`, name: "Widget works" },
  });
  expect(added.status(), await added.text()).toBe(201);
  const siteId = ((await added.json()).data as { id: string }).id;

  // from the site's page to its Visibility page
  await page.goto(`/app/sites/${siteId}`);
  await page.getByRole("link", { name: /^AI visibility/ }).click();
  await expect(h1(page, "AI visibility: Widget works")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/sites/${siteId}/visibility$`));
  const profile = section(page, "Profile");
  await expect(profile.getByText("No profile is set yet")).toBeVisible();

  // the profile, by keyboard only: names, domains, samples, one engine unticked, Enter saves
  const names = page.getByLabel("Brand names");
  await tabTo(page, names);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Widget Works");
  await page.keyboard.press("Enter");
  await page.keyboard.type("WidgetWorks");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Brand domains")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("widgets.example");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Samples per prompt")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("5");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("ChatGPT")).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Perplexity")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByLabel("Perplexity")).not.toBeChecked();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Save profile" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(profile.getByText("The profile is saved.")).toBeVisible();
  await expect(profile.locator("dd").filter({ hasText: "Widget Works, WidgetWorks" })).toBeVisible();
  await expect(profile.locator("dd").filter({ hasText: "ChatGPT, Claude, Gemini" })).toBeVisible();
  const stored = await page.request.get(`/api/v1/sites/${siteId}/visibility`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await stored.json()).data).toMatchObject({
    configured: true,
    brand_names: ["Widget Works", "WidgetWorks"],
    brand_domains: ["widgets.example"],
    samples_per_prompt: 5,
    engines: ["chatgpt", "claude", "gemini"],
  });
  // a refusal of the API is shown in the form
  await page.getByLabel("Samples per prompt").fill("11");
  await page.getByLabel("Samples per prompt").evaluate((input: HTMLInputElement) => input.removeAttribute("max"));
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByRole("alert")).toContainText("samples_per_prompt");

  // one prompt, then a CSV with a faulty row: refused whole, the row named, nothing added
  const prompts = section(page, "Prompts");
  await expect(prompts.getByText("No prompts yet.")).toBeVisible();
  await prompts.getByLabel("Prompt", { exact: true }).fill("Which widget lasts longest on a boat?");
  await prompts.getByLabel("Topic").fill("marine");
  await prompts.getByLabel("Tags").fill("buying, boats");
  await prompts.getByLabel("Locale").fill("en-gb");
  await prompts.getByRole("button", { name: "Add prompt" }).click();
  await expect(prompts.getByText("“Which widget lasts longest on a boat?” is tracked.")).toBeVisible();
  const firstRow = prompts.getByRole("row", { name: /Which widget lasts longest/ });
  await expect(firstRow).toContainText("buying, boats");
  await expect(firstRow).toContainText("en-GB");

  const faulty = "text,topic,locale\nBest brass widget?,brass,en\n,empty,\nWidgets for kayaks,marine,english\n";
  await prompts.getByLabel("Or paste the CSV").fill(faulty);
  await prompts.getByRole("button", { name: "Import prompts" }).click();
  const refusal = prompts.locator(".import-refusal");
  await expect(refusal).toContainText("Nothing was imported: 2 of 3 rows cannot be imported.");
  await expect(refusal.getByRole("listitem")).toHaveText([/^row 3: text: /, /^row 4: locale: "english"/]);
  await expect(prompts.getByRole("row")).toHaveCount(2);

  // corrected, from a file this time: both added, the one tracked already skipped
  await prompts.getByLabel("Or paste the CSV").fill("");
  await prompts.getByLabel("CSV file").setInputFiles({
    name: "prompts.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "text,topic,locale\nBest brass widget?,brass,en\nWidgets for kayaks,marine,en-GB\nwhich widget lasts longest on a boat,marine,\n",
    ),
  });
  await prompts.getByRole("button", { name: "Import prompts" }).click();
  await expect(prompts.getByText("2 prompts imported from 3 rows; 1 skipped")).toBeVisible();
  await expect(refusal).toHaveCount(0);
  await expect(prompts.getByRole("row")).toHaveCount(4);

  // edit a prompt, then delete it
  await prompts.getByRole("button", { name: "Edit “Widgets for kayaks”" }).click();
  await expect(prompts.getByLabel("Prompt", { exact: true })).toBeFocused();
  await prompts.getByLabel("Prompt", { exact: true }).fill("Widgets for sea kayaks");
  await prompts.getByRole("button", { name: "Save prompt" }).click();
  await expect(prompts.getByText("The prompt is now “Widgets for sea kayaks”.")).toBeVisible();
  await prompts.getByRole("button", { name: "Delete “Widgets for sea kayaks”" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete prompt" }).click();
  await expect(prompts.getByText("“Widgets for sea kayaks” is no longer tracked.")).toBeVisible();
  await expect(prompts.getByRole("row")).toHaveCount(3);

  // competitors: one added here, four more by the API to the Starter plan's five, the sixth
  // refused with the plan's limit, one changed and one removed
  const competitors = section(page, "Competitors");
  await expect(competitors.getByText("No competitors yet.")).toBeVisible();
  await competitors.getByLabel("Competitor name").fill("Acme Widgets");
  await competitors.getByLabel("Domains").fill("acme.example");
  await competitors.getByRole("button", { name: "Add competitor" }).click();
  await expect(competitors.getByText("Acme Widgets is a competitor now.")).toBeVisible();
  await expect(competitors.getByRole("row", { name: /Acme Widgets/ })).toContainText("acme.example");
  for (const name of ["Gizmo Co", "Sprocket Ltd", "Ratchet Inc", "Flange & Sons"]) {
    const made = await page.request.post(`/api/v1/sites/${siteId}/competitors`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  await competitors.getByLabel("Competitor name").fill("Cog Corp");
  await competitors.getByRole("button", { name: "Add competitor" }).click();
  await expect(competitors.getByRole("alert")).toContainText(
    "Your plan's limit of competitors for this site is reached.",
  );
  await expect(competitors.getByRole("alert")).toContainText("at most 5 competitors");
  await page.reload();
  await expect(competitors.getByRole("row")).toHaveCount(6);
  await expect(competitors.getByRole("row", { name: /Cog Corp/ })).toHaveCount(0);
  await competitors.getByRole("button", { name: "Edit Acme Widgets" }).click();
  await competitors.getByLabel("Other names").fill("Acme, ACME Inc");
  await competitors.getByRole("button", { name: "Save competitor" }).click();
  await expect(competitors.getByRole("row", { name: /Acme Widgets/ })).toContainText("Acme, ACME Inc");
  await competitors.getByRole("button", { name: "Delete Gizmo Co" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete competitor" }).click();
  await expect(competitors.getByText("Gizmo Co is no longer a competitor.")).toBeVisible();
  await expect(competitors.getByRole("row")).toHaveCount(5);
  await expect(profile.locator("dd").filter({ hasText: "2 prompts, 4 competitors" })).toBeVisible();
  await expectAccessible(page, "visibility, owner");

  // the workspace's engine keys: set one, shown only by its last four, then removed
  await page.goto("/app/settings/workspace");
  const keys = section(page, "AI engine keys");
  await expect(keys.getByText("No engine keys")).toBeVisible();
  await keys.getByLabel("Engine").selectOption("claude");
  await keys.getByLabel("API key").fill("sk-ant-e2e-0123456789-wxyz");
  await keys.getByLabel("Model").fill("claude-sonnet-4-5");
  await keys.getByRole("button", { name: "Set key" }).click();
  await expect(keys.getByText("The Claude (Anthropic) key ending in wxyz is set.")).toBeVisible();
  const keyRow = keys.getByRole("row", { name: /Claude/ });
  await expect(keyRow).toContainText("claude-sonnet-4-5");
  await expect(keyRow).toContainText("…wxyz");
  await expect(page.getByText("sk-ant-e2e")).toHaveCount(0);
  await expectAccessible(page, "workspace with an engine key");
  await keys.getByRole("button", { name: "Remove the Claude (Anthropic) key" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove key" }).click();
  await expect(keys.getByText("The Claude (Anthropic) key is removed.")).toBeVisible();
  await expect(keys.getByText("No engine keys")).toBeVisible();

  // a viewer of the workspace reads the page and is offered no write
  await sql(
    `INSERT INTO memberships (workspace_id, user_id, role)
     SELECT w.id, v.id, 'viewer' FROM workspaces w JOIN users o ON w.personal_user_id = o.id, users v
     WHERE o.email = $1 AND v.email = $2`,
    [owner.email, viewer.email],
  );
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer);
  const switcher = viewerPage.getByLabel("Workspace", { exact: true });
  await switcher.selectOption({ label: `${owner.email} (Viewer)` });
  await viewerPage.getByRole("button", { name: "Switch", exact: true }).click();
  await expect(switcher.locator("option:checked")).toHaveText(`${owner.email} (Viewer)`);
  await viewerPage.goto(`/app/sites/${siteId}/visibility`);
  await expect(h1(viewerPage, "AI visibility: Widget works")).toBeVisible();
  await expect(viewerPage.getByText("Your role in this workspace is viewer: you can read, not change.")).toBeVisible();
  await expect(section(viewerPage, "Prompts").getByRole("row")).toHaveCount(3);
  await expect(section(viewerPage, "Competitors").getByRole("row")).toHaveCount(5);
  await expect(viewerPage.locator("main form")).toHaveCount(0);
  await expect(viewerPage.locator("main").getByRole("button")).toHaveCount(0);
  await expectAccessible(viewerPage, "visibility, viewer");
  // and no engine keys section on the Workspace page
  await viewerPage.goto("/app/settings/workspace");
  await expect(viewerPage.getByText("You are a viewer here")).toBeVisible();
  await expect(section(viewerPage, "AI engine keys")).toHaveCount(0);

  for (const list of requests) expectSameOrigin(list);
  await ownerContext.close();
  await viewerContext.close();
});
