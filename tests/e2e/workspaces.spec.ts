import type { Page } from "@playwright/test";
import {
  auditSiteUrl,
  expect,
  expectAccessible,
  expectNarrow,
  expectSameOrigin,
  gatewayUrl,
  pageHeading as heading,
  newAccount,
  recordRequests,
  sessionToken,
  signIn,
  signUpByApi,
  siteUrl,
  test,
} from "./support/fixtures";

/**
 * Workspaces in the dashboard: an owner invites a member, who signs up from the link, accepts,
 * switches by keyboard and sees the workspace's sites; made a viewer, their write is refused
 * with the API's message and, drawn again, Sites and Scans offer them no write; removed, their
 * session there ends. Axe on each state, no request to
 * another origin, nothing wider than a 375 px screen.
 */

const WORKSPACE = "Agency North";
const SITE_NAME = "Cold brew client";

const membersTable = (page: Page) => page.getByRole("region", { name: "Member list", exact: true });
const invitationsTable = (page: Page) => page.getByRole("region", { name: "Invitation list", exact: true });

test("invite, sign up from the link, accept, switch, made a viewer, removed", async ({ browser }, testInfo) => {
  const owner = await signUpByApi();
  const member = newAccount();
  const ownerContext = await browser.newContext({ baseURL: gatewayUrl() });
  const memberContext = await browser.newContext({ baseURL: gatewayUrl() });
  const requests = [...[ownerContext, memberContext].map(recordRequests)];
  const ownerPage = await ownerContext.newPage();
  const memberPage = await memberContext.newPage();

  // the owner's workspace holds a site, added with the session's own JWT
  await signIn(ownerPage, owner);
  const added = await ownerPage.request.post("/api/v1/sites", {
    headers: { Authorization: `Bearer ${await sessionToken(ownerPage)}` },
    data: { url: `${siteUrl()}/`, name: SITE_NAME },
  });
  expect(added.status(), await added.text()).toBe(201);

  // rename it from the Workspace page, the field focused, Enter saves
  await ownerPage.getByRole("link", { name: "Workspace", exact: true }).click();
  await expect(heading(ownerPage, owner.email)).toBeVisible();
  await expect(ownerPage.getByText(/Your role here:\s*Owner/)).toBeVisible();
  await ownerPage.getByRole("button", { name: "Rename" }).click();
  await expect(ownerPage.getByRole("dialog").getByLabel("Name")).toBeFocused();
  await ownerPage.keyboard.press("ControlOrMeta+a");
  await ownerPage.keyboard.type(WORKSPACE);
  await ownerPage.keyboard.press("Enter");
  await expect(heading(ownerPage, WORKSPACE)).toBeVisible();
  await expect(ownerPage.getByLabel("Workspace", { exact: true })).toHaveText(`${WORKSPACE} (Owner)`);

  // invite: the link the API answers is shown to copy
  await ownerPage.getByLabel("Email").fill(member.email);
  await ownerPage.getByRole("button", { name: "Invite", exact: true }).click();
  const linkField = ownerPage.getByLabel("Invitation link");
  await expect(linkField).toHaveValue(/\/app\/workspace-invitation#token=/);
  const link = new URL(await linkField.inputValue());
  await expect(invitationsTable(ownerPage).getByRole("row", { name: new RegExp(member.email) })).toContainText("Open");
  await expectAccessible(ownerPage, "workspace, an invitation made");
  await ownerPage.screenshot({ path: testInfo.outputPath("workspace.png"), fullPage: true });
  await ownerPage.getByRole("button", { name: "I have sent it" }).click();

  // the invited person opens the link signed out, signs up and comes back to accept
  await memberPage.goto(`${link.pathname}${link.hash}`);
  await expect(heading(memberPage, "Join a workspace")).toBeVisible();
  await expectAccessible(memberPage, "invitation, signed out");
  await memberPage.getByRole("link", { name: "Create an account" }).click();
  await expect(heading(memberPage, "Create an account")).toBeVisible();
  await memberPage.getByLabel("Email").fill(member.email);
  await memberPage.getByLabel("Password").fill(member.password);
  await memberPage.getByRole("button", { name: "Create account" }).click();
  await expect(heading(memberPage, "Join a workspace")).toBeVisible();
  await expectAccessible(memberPage, "invitation, signed in");
  await memberPage.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(memberPage.getByRole("heading", { level: 2, name: `You joined ${WORKSPACE}` })).toBeVisible();
  await expect(memberPage.getByText(`You are a member of ${WORKSPACE}, as member.`)).toBeVisible();

  // still in their own workspace: its sites are not the owner's
  await memberPage.getByRole("link", { name: /^Stay in / }).click();
  await memberPage.getByRole("link", { name: "Sites", exact: true }).click();
  await expect(heading(memberPage, "Sites")).toBeVisible();
  await expect(memberPage.getByText("No sites yet", { exact: false })).toBeVisible();
  await expect(memberPage.getByRole("link", { name: SITE_NAME })).toHaveCount(0);

  // keyboard only: from the page's title back up to the switcher, choose the workspace, Tab to Switch, Enter
  const switcher = memberPage.getByLabel("Workspace", { exact: true });
  await expect(switcher.locator("option")).toHaveText([`${member.email} (Owner)`, `${WORKSPACE} (Member)`]);
  await expect(heading(memberPage, "Sites")).toBeFocused();
  for (let presses = 0; presses < 12; presses += 1) {
    await memberPage.keyboard.press("Shift+Tab");
    if (await switcher.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(switcher).toBeFocused();
  await memberPage.keyboard.press("ArrowDown");
  await expect(switcher).toHaveValue(/.+/);
  await expect(switcher.locator("option:checked")).toHaveText(`${WORKSPACE} (Member)`);
  await memberPage.keyboard.press("Tab");
  await expect(memberPage.getByRole("button", { name: "Switch", exact: true })).toBeFocused();
  await memberPage.keyboard.press("Enter");
  // the page is drawn again with the workspace's data
  await expect(memberPage.getByRole("link", { name: SITE_NAME })).toBeVisible();
  await expect(heading(memberPage, "Sites")).toBeFocused();
  await expect(switcher.locator("option:checked")).toHaveText(`${WORKSPACE} (Member)`);
  await expectAccessible(memberPage, "sites, after switching");
  await memberPage.screenshot({ path: testInfo.outputPath("switcher.png") });

  // the owner makes them a viewer
  await ownerPage.reload();
  await expect(membersTable(ownerPage).getByRole("row", { name: new RegExp(member.email) })).toBeVisible();
  await expect(invitationsTable(ownerPage).getByRole("row", { name: new RegExp(member.email) })).toContainText(
    "Accepted",
  );
  await ownerPage.getByLabel(`Role of ${member.email}`, { exact: true }).selectOption("viewer");
  await ownerPage.getByRole("button", { name: `Change the role of ${member.email}` }).click();
  await expect(ownerPage.getByText(`${member.email} is now viewer.`)).toBeVisible();

  // the page drawn before the change still offers the form: the viewer's write is refused with the API's message
  await memberPage.getByLabel("Address").fill(`${auditSiteUrl()}/`);
  await memberPage.getByRole("button", { name: "Add site" }).click();
  await expect(memberPage.getByRole("alert")).toContainText(
    "Your role in this workspace is viewer, which reads and does not write",
  );
  // drawn again, Sites and Scans say the role and offer no write; the list still reads
  const readOnly = "Your role in this workspace is viewer: you can read, not change.";
  await memberPage.reload();
  await expect(heading(memberPage, "Sites")).toBeVisible();
  await expect(memberPage.getByText(readOnly)).toBeVisible();
  await expect(memberPage.getByRole("link", { name: SITE_NAME })).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Add site" })).toHaveCount(0);
  await expect(memberPage.getByLabel("Address")).toHaveCount(0);
  await expectAccessible(memberPage, "sites, as a viewer");
  await memberPage.screenshot({ path: testInfo.outputPath("sites-viewer.png"), fullPage: true });
  await memberPage.getByRole("link", { name: "Scans", exact: true }).click();
  await expect(heading(memberPage, "Scans")).toBeVisible();
  await expect(memberPage.getByText(readOnly)).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Scan", exact: true })).toHaveCount(0);
  await expect(memberPage.getByLabel("Page URL")).toHaveCount(0);
  await expectAccessible(memberPage, "scans, as a viewer");
  // the button is gone, the API's refusal stays: the session's own JWT, straight to the API
  const refused = await memberPage.request.post("/api/v1/sites", {
    headers: { Authorization: `Bearer ${await sessionToken(memberPage)}` },
    data: { url: `${auditSiteUrl()}/` },
  });
  expect(refused.status(), await refused.text()).toBe(403);
  expect((await refused.json()).error.code).toBe("forbidden");
  // and the Workspace page is read only for them
  await memberPage.getByRole("link", { name: "Workspace", exact: true }).click();
  await expect(heading(memberPage, WORKSPACE)).toBeVisible();
  await expect(memberPage.getByText("You are a viewer here")).toBeVisible();
  await expect(membersTable(memberPage).getByRole("row", { name: new RegExp(owner.email) })).toContainText("Owner");
  await expect(memberPage.getByRole("button", { name: "Rename" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Invite", exact: true })).toHaveCount(0);
  await expect(memberPage.getByLabel("Workspace", { exact: true }).locator("option:checked")).toHaveText(
    `${WORKSPACE} (Viewer)`,
  );
  await expectAccessible(memberPage, "workspace, as a viewer");

  // the owner removes them (Escape first keeps them)
  await ownerPage.getByRole("button", { name: `Remove ${member.email}` }).click();
  await expect(ownerPage.getByRole("dialog")).toBeVisible();
  await ownerPage.keyboard.press("Escape");
  await expect(ownerPage.getByRole("dialog")).toBeHidden();
  await ownerPage.getByRole("button", { name: `Remove ${member.email}` }).click();
  await ownerPage.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
  await expect(ownerPage.getByText(`${member.email} is removed from ${WORKSPACE}.`)).toBeVisible();
  await expect(membersTable(ownerPage).getByRole("row", { name: new RegExp(member.email) })).toHaveCount(0);

  // their session there ends: the next page's request is refused and they are sent to sign in
  await memberPage.getByRole("link", { name: "Scans", exact: true }).click();
  await expect(heading(memberPage, "Sign in")).toBeVisible();
  await expect(memberPage.getByText("Your session has ended.")).toBeVisible();
  // signing in again, they act in their own workspace, the only one left
  await memberPage.getByLabel("Email").fill(member.email);
  await memberPage.getByLabel("Password").fill(member.password);
  await memberPage.getByRole("button", { name: "Sign in" }).click();
  await expect(heading(memberPage, "Scans")).toBeVisible();
  await expect(memberPage.getByLabel("Workspace", { exact: true }).locator("option")).toHaveText([
    `${member.email} (Owner)`,
  ]);

  for (const list of requests) expectSameOrigin(list);
  await ownerContext.close();
  await memberContext.close();
});

test("at phone width (375 px): the switcher and the Workspace page fit the screen", async ({ browser }, testInfo) => {
  const owner = await signUpByApi();
  const context = await browser.newContext({ baseURL: gatewayUrl(), viewport: { width: 375, height: 740 } });
  const requests = recordRequests(context);
  const page = await context.newPage();
  await signIn(page, owner);
  await expect(page.getByLabel("Workspace", { exact: true })).toHaveText(`${owner.email} (Owner)`);
  await expectNarrow(page, "scans with the switcher");
  await page.screenshot({ path: testInfo.outputPath("phone-switcher.png") });
  await page.goto("/app/settings/workspace");
  await expect(heading(page, owner.email)).toBeVisible();
  await page.getByLabel("Email").fill(`invited-${Date.now()}@example.com`);
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByLabel("Invitation link")).toHaveValue(/#token=/);
  await expect(invitationsTable(page).getByRole("row", { name: /invited-/ })).toContainText("Viewer");
  await expectNarrow(page, "workspace");
  await expectAccessible(page, "workspace at 375 px");
  await page.screenshot({ path: testInfo.outputPath("phone-workspace.png"), fullPage: true });
  // the link opened signed out, at the same width
  const link = new URL(await page.getByLabel("Invitation link").inputValue());
  const signedOut = await browser.newContext({ baseURL: gatewayUrl(), viewport: { width: 375, height: 740 } });
  const outRequests = recordRequests(signedOut);
  const outPage = await signedOut.newPage();
  await outPage.goto(`${link.pathname}${link.hash}`);
  await expect(heading(outPage, "Join a workspace")).toBeVisible();
  await expectNarrow(outPage, "invitation, signed out");
  expectSameOrigin(requests);
  expectSameOrigin(outRequests);
  await signedOut.close();
  await context.close();
});
