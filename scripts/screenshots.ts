/**
 * `pnpm screenshots`: a PNG of every dashboard page into docs/screenshots/, taken in Debian's
 * Chromium from a running stack (the browser tests' own: dashboard build, database, gateway,
 * worker and loopback sites to scan and audit) filled with a user, scans, a site with audits, a
 * regression alert, a schedule, keywords and citation tracks, and a key. Desktop (1280 px) and
 * phone (375 px) widths. docs/dashboard.md shows them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "pg";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { auditApi } from "../tests/e2e/support/audit-history";
import { startStackProcess } from "../tests/e2e/support/stack-process";

const ROOT = resolve(__dirname, "..");
const OUT = join(ROOT, "docs/screenshots");
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium";

const say = (message: string) => process.stderr.write(`[screenshots] ${message}\n`);

type Env = Record<string, string>;
const USER = { email: "ana@agency.example", password: "correct-horse-battery" };
const MEMBER = { email: "sam@agency.example", password: "correct-horse-battery" };

const accountsCli = (env: Env, ...args: string[]): string =>
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/tsx/dist/cli.mjs"), join(ROOT, "services/gateway/src/accounts-cli.ts"), ...args],
    {
      env: { ...process.env, DATABASE_URL: env.E2E_DATABASE_URL, PUBLIC_URL: env.E2E_GATEWAY_URL },
      stdio: ["ignore", "pipe", "ignore"],
    },
  )
    .toString()
    .trim();

/** Signs up through the API and answers a signed-in browser context. */
const signedIn = async (browser: Browser, env: Env, account: typeof USER, width: number): Promise<BrowserContext> => {
  const context = await browser.newContext({
    baseURL: env.E2E_GATEWAY_URL,
    viewport: { width, height: width < 500 ? 800 : 900 },
    deviceScaleFactor: width < 500 ? 2 : 1,
  });
  const page = await context.newPage();
  await page.goto("/app/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/app\/scans$/);
  await page.close();
  return context;
};

/** A session JWT for API calls made to fill the account. */
const tokenOf = async (context: BrowserContext, env: Env): Promise<string> => {
  const session = await context.request.get("/auth/session");
  const { csrfToken } = (await session.json()).data as { csrfToken: string };
  const issued = await context.request.post("/auth/token", {
    headers: { "X-CSRF-Token": csrfToken, Origin: env.E2E_GATEWAY_URL! },
  });
  return ((await issued.json()).data as { token: string }).token;
};

const fill = async (env: Env, token: string) => {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${env.E2E_GATEWAY_URL}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()).data;
  };
  const site = env.E2E_SITE_URL;
  const scans = [];
  for (const [path, mode] of [
    ["/", "quick"],
    ["/guides/cold-brew", "quick"],
    ["/", "full"],
    ["/guides/cold-brew", "full"],
  ] as const) {
    scans.push(await call("/api/v1/scan", { url: `${site}${path}`, mode }));
  }
  await call("/api/v1/sites", { url: `${site}/`, name: "Home barista guides" });
  // the site the site page shows: scans of its pages and audits of the whole site, in turns,
  // the second quick audit finding a broken link the first left out (a regression alert)
  const audited = env.E2E_AUDIT_SITE_URL;
  const audits = auditApi(env.E2E_GATEWAY_URL!, token);
  await call("/api/v1/scan", { url: `${audited}/`, mode: "quick" });
  await call("/api/v1/scan", { url: `${audited}/guides/ratio`, mode: "full" });
  const { siteId, after } = await audits.regressedSite(audited!, "Cold brew guides");
  await audits.audit(siteId, { mode: "full" });
  await call("/api/v1/scan", { url: `${audited}/guides/grind`, mode: "full" });
  const created = { id: siteId };
  for (const [keyword, position] of [
    ["cold brew ratio", 7],
    ["espresso grind size", 12],
    ["pour over recipe", 18],
    ["cold brew ratio", 4],
  ] as const) {
    await call("/api/v1/keywords", {
      site_id: created.id,
      keyword,
      position,
      volume: 2400 + position * 90,
      difficulty: 30 + position,
    });
  }
  const engines = ["chatgpt", "claude", "perplexity", "gemini"];
  for (let i = 0; i < 8; i++) {
    const cited = i % 3 !== 1;
    await call("/api/v1/citations", {
      site_id: created.id,
      platform: engines[i % 4],
      query_text: ["best cold brew ratio", "how fine to grind espresso", "pour over vs french press"][i % 3],
      cited,
      ...(cited ? { citation_url: `${audited}/guides/ratio` } : { citation_url: "https://other.example/brew" }),
      checked_at: new Date(Date.now() - i * 2 * 86_400_000).toISOString(),
    });
  }
  // an agency's client with its quotas, the audited site assigned to it, a read-only key limited to it
  const client = await call("/api/v1/clients", {
    name: "Northside Roasters",
    notes: "Monthly report on the 1st",
    scan_quota: 200,
    audit_quota: 10,
  });
  const assigned = await fetch(`${env.E2E_GATEWAY_URL}/api/v1/sites/${siteId}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ client_id: client.id }),
  });
  if (!assigned.ok) throw new Error(`assigning the site answered ${assigned.status}: ${await assigned.text()}`);
  await call("/api/v1/clients", { name: "Harbour Bakery" });
  await call("/api/v1/scan", { url: `${audited}/guides/ratio`, mode: "quick" });
  await call("/api/v1/keys", { name: "Northside dashboard", client_id: client.id, read_only: true });
  return { scans, siteId: created.id, regressed: after, fullScan: scans[3].id as string };
};

/** The site's AI visibility configuration: a profile, prompts imported from a CSV, competitors, engine keys. */
const fillVisibility = async (env: Env, token: string, siteId: string) => {
  const call = async (method: string, path: string, body: unknown, type = "application/json") => {
    const response = await fetch(`${env.E2E_GATEWAY_URL}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": type },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()).data;
  };
  await call("PUT", `/api/v1/sites/${siteId}/visibility`, {
    brand_names: ["Cold brew guides", "ColdBrewGuides"],
    brand_domains: ["coldbrew-guides.example"],
    samples_per_prompt: 5,
    engines: ["chatgpt", "claude", "perplexity"],
  });
  await call(
    "POST",
    `/api/v1/sites/${siteId}/prompts/import`,
    [
      "text,topic,tags,locale",
      "What is the best cold brew ratio?,ratio,brewing|basics,en-GB",
      "How long should cold brew steep in the fridge?,time,brewing,en-GB",
      "Which grind size works for cold brew?,grind,grind|basics,",
      "Is cold brew less acidic than hot coffee?,health,,en-US",
      '"Cold brew concentrate: how much water to add?",ratio,serving,',
    ].join("\n"),
    "text/csv",
  );
  for (const [name, aliases, domains] of [
    ["Brew Academy", ["BrewAcademy"], ["brew-academy.example"]],
    ["Home Barista Hub", [], ["homebaristahub.example", "hbh.example"]],
    ["Coffee Lab", ["The Coffee Lab"], []],
  ] as const) {
    await call("POST", `/api/v1/sites/${siteId}/competitors`, { name, aliases, domains });
  }
  const workspaces = await fetch(`${env.E2E_GATEWAY_URL}/api/v1/workspaces`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const workspace = ((await workspaces.json()).data as Array<{ id: string; current: boolean }>).find((w) => w.current);
  for (const [engine, key, model] of [
    ["chatgpt", "sk-proj-screenshot-0123456789-Q7fX", "gpt-4.1"],
    ["claude", "sk-ant-screenshot-0123456789-m2Kd", null],
  ] as const) {
    await call("PUT", `/api/v1/workspaces/${workspace?.id}/engine-keys/${engine}`, { api_key: key, model });
  }
};

const shoot = async (
  page: Page,
  name: string,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  { fullPage = true }: { fullPage?: boolean } = {},
) => {
  await page.goto(path);
  await ready(page);
  // every part of the page has loaded
  await page.waitForFunction(() => !document.querySelector(".state-loading"));
  // the focus ring of the page's title is not part of the picture
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
  say(`docs/screenshots/${name}.png`);
};

const h1 = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { level: 1, name }).waitFor();

const main = async () => {
  mkdirSync(OUT, { recursive: true });
  say("starting the stack");
  const stack = await startStackProcess();
  const env = stack.env;
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    for (const account of [USER, MEMBER]) {
      const response = await fetch(`${env.E2E_GATEWAY_URL}/auth/sign-up`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: env.E2E_GATEWAY_URL! },
        body: JSON.stringify(account),
      });
      if (response.status !== 201) throw new Error(`sign-up answered ${response.status}`);
    }
    const db = new Client({ connectionString: env.E2E_DATABASE_URL });
    await db.connect();
    await db.query(`UPDATE users SET role = 'operator', plan = 'pro' WHERE email = $1`, [USER.email]);
    await db.end();

    const desktop = await signedIn(browser, env, USER, 1280);
    say("scanning and recording keywords and citations");
    const { siteId, regressed, fullScan } = await fill(env, await tokenOf(desktop, env));
    await fillVisibility(env, await tokenOf(desktop, env), siteId);
    const invitation = accountsCli(env, "invite", "--email", "lee@agency.example");
    const reset = accountsCli(env, "reset-link", "--email", MEMBER.email);

    const anonymous = await browser.newContext({
      baseURL: env.E2E_GATEWAY_URL,
      viewport: { width: 1280, height: 800 },
    });
    const out = await anonymous.newPage();
    await shoot(out, "sign-in", "/app/sign-in", h1("Sign in"));
    await shoot(out, "sign-up", "/app/sign-up", h1("Create an account"));
    await shoot(out, "invitation", new URL(invitation).pathname + new URL(invitation).hash, (p) =>
      p.getByText("Choose a password for").waitFor(),
    );
    await shoot(out, "reset-password", new URL(reset).pathname + new URL(reset).hash, h1("Reset your password"));
    await anonymous.close();

    const page = await desktop.newPage();
    await shoot(page, "scans", "/app/scans", (p) => p.locator("table").first().waitFor());
    await page.getByLabel("Page URL").fill(`${env.E2E_SITE_URL}/`);
    await page.getByRole("button", { name: "Scan", exact: true }).click();
    await page.locator(".started").getByRole("status").waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: join(OUT, "scan-started.png") });
    say("docs/screenshots/scan-started.png");
    await shoot(page, "report", `/app/scans/${fullScan}`, (p) => p.locator(".grade-large").waitFor());
    await shoot(page, "report-top", `/app/scans/${fullScan}`, (p) => p.locator(".grade-large").waitFor(), {
      fullPage: false,
    });
    await shoot(page, "sites", "/app/sites", (p) => p.locator("table").waitFor());
    await shoot(page, "site", `/app/sites/${siteId}?range=90d`, (p) => p.locator(".chart").waitFor());
    await shoot(page, "site-top", `/app/sites/${siteId}?range=90d`, (p) => p.locator(".chart").waitFor(), {
      fullPage: false,
    });
    // keywords and citation tracks, each card with its table and its form to add one
    for (const [name, title] of [
      ["site-keywords", "keywords-title"],
      ["site-citations", "citations-title"],
    ] as const) {
      await page.goto(`/app/sites/${siteId}?range=90d`);
      await page.locator(".chart").waitFor();
      await page.waitForFunction(() => !document.querySelector(".state-loading"));
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.locator(`section[aria-labelledby="${title}"]`).screenshot({ path: join(OUT, `${name}.png`) });
      say(`docs/screenshots/${name}.png`);
    }
    await page.getByRole("button", { name: "Delete site" }).click();
    await page.getByRole("dialog").waitFor();
    await page.screenshot({ path: join(OUT, "site-delete.png") });
    say("docs/screenshots/site-delete.png");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("dialog").waitFor();
    await page.screenshot({ path: join(OUT, "site-rename.png") });
    say("docs/screenshots/site-rename.png");
    await page.keyboard.press("Escape");
    // the audits card alone, with the regressed audit's report opened in it
    await page.goto(`/app/sites/${siteId}?audit=${regressed}`);
    await page.getByRole("heading", { name: "Worst pages" }).waitFor();
    await page.waitForFunction(() => !document.querySelector(".state-loading"));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('section[aria-labelledby="audits-title"]').screenshot({ path: join(OUT, "site-audit.png") });
    say("docs/screenshots/site-audit.png");
    // a site's AI visibility, whole, then its CSV import refusing a file with faulty rows
    await shoot(page, "visibility", `/app/sites/${siteId}/visibility`, (p) =>
      p.getByRole("region", { name: "Competitor list" }).waitFor(),
    );
    await page
      .getByLabel("Or paste the CSV")
      .fill("text,topic,locale\nBest beans for cold brew?,beans,en\n,beans,\nCold brew at home,home,english\n");
    await page.getByRole("button", { name: "Import prompts" }).click();
    await page.locator(".import-refusal").waitFor();
    await page
      .locator('section[aria-labelledby="prompts-title"]')
      .screenshot({ path: join(OUT, "visibility-import.png") });
    say("docs/screenshots/visibility-import.png");
    await page.goto("/app/settings/workspace");
    await page.getByRole("region", { name: "Engine key list" }).waitFor();
    await page.waitForFunction(() => !document.querySelector(".state-loading"));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page
      .locator('section[aria-labelledby="engine-keys-title"]')
      .screenshot({ path: join(OUT, "engine-keys.png") });
    say("docs/screenshots/engine-keys.png");
    await page.goto("/app/settings/keys");
    await page.getByLabel("Name").fill("CI");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("It will not be shown again").waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: join(OUT, "key-created.png"), fullPage: true });
    say("docs/screenshots/key-created.png");
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("button", { name: "Delete the key CI" }).click();
    await page.getByRole("dialog").waitFor();
    await page.screenshot({ path: join(OUT, "key-delete.png") });
    say("docs/screenshots/key-delete.png");
    await page.keyboard.press("Escape");
    await shoot(page, "keys", "/app/settings/keys", (p) => p.locator("table").waitFor());
    await page.goto("/app/settings/workspace");
    await page.getByRole("region", { name: "Client list" }).waitFor();
    await page.getByRole("region", { name: "Audit log entries" }).waitFor();
    await page.waitForFunction(() => !document.querySelector(".state-loading"));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('section[aria-labelledby="clients-title"]').screenshot({ path: join(OUT, "clients.png") });
    say("docs/screenshots/clients.png");
    await page.locator('section[aria-labelledby="audit-log-title"]').screenshot({ path: join(OUT, "audit-log.png") });
    say("docs/screenshots/audit-log.png");
    await shoot(page, "account", "/app/settings/account", (p) => p.getByRole("heading", { name: /plan$/ }).waitFor());
    await shoot(page, "operations", "/app/operations", (p) =>
      p.getByRole("heading", { level: 2, name: "Queue" }).waitFor(),
    );

    const member = await signedIn(browser, env, MEMBER, 1280);
    await shoot(await member.newPage(), "operations-member", "/app/operations", (p) => p.getByRole("alert").waitFor());
    await member.close();

    const phone = await signedIn(browser, env, USER, 375);
    const small = await phone.newPage();
    await shoot(small, "phone-scans", "/app/scans", (p) => p.locator("table").waitFor(), { fullPage: false });
    await shoot(small, "phone-report", `/app/scans/${fullScan}`, (p) => p.locator(".grade-large").waitFor(), {
      fullPage: false,
    });
    await shoot(small, "phone-site", `/app/sites/${siteId}?range=90d`, (p) => p.locator(".chart").waitFor(), {
      fullPage: false,
    });
    await shoot(small, "phone-keys", "/app/settings/keys", (p) => p.locator("table").waitFor(), { fullPage: false });
    await shoot(small, "phone-sites", "/app/sites", (p) => p.locator("table").waitFor(), { fullPage: false });
    await small.goto("/app/settings/workspace");
    await small.getByRole("region", { name: "Client list" }).waitFor();
    await small.waitForFunction(() => !document.querySelector(".state-loading"));
    await small.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await small
      .locator('section[aria-labelledby="clients-title"]')
      .screenshot({ path: join(OUT, "phone-clients.png") });
    say("docs/screenshots/phone-clients.png");
    await small.goto(`/app/sites/${siteId}?range=90d`);
    await small.locator(".chart").waitFor();
    await small.waitForFunction(() => !document.querySelector(".state-loading"));
    await small.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await small
      .locator('section[aria-labelledby="keywords-title"]')
      .screenshot({ path: join(OUT, "phone-site-keywords.png") });
    say("docs/screenshots/phone-site-keywords.png");
    await shoot(small, "phone-visibility", `/app/sites/${siteId}/visibility`, (p) =>
      p.getByRole("region", { name: "Competitor list" }).waitFor(),
    );
    await small.goto("/app/settings/workspace");
    await small.getByRole("region", { name: "Engine key list" }).waitFor();
    await small.waitForFunction(() => !document.querySelector(".state-loading"));
    await small.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await small
      .locator('section[aria-labelledby="engine-keys-title"]')
      .screenshot({ path: join(OUT, "phone-engine-keys.png") });
    say("docs/screenshots/phone-engine-keys.png");
    await shoot(small, "phone-operations", "/app/operations", (p) => p.locator("figure.throughput").waitFor());
    await phone.close();
    await desktop.close();
  } finally {
    await browser.close();
    await stack.stop();
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
