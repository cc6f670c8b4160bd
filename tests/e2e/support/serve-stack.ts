import { ensureDashboardBuilt } from "../../../scripts/dashboard-build";
import { KEYS, startEngineServers } from "../../support/engine-servers";
import { html, startFixtureServer, text } from "../../support/fixture-server";
import { createTestDatabase, testRedisUrl } from "../../support/services";
import { startStack } from "../../support/stack";
import { startAuditSites } from "./audit-sites";

/**
 * The stack of the browser tests, in its own process: the dashboard built if stale, a fresh
 * database, the real gateway and worker on free ports, a loopback site to scan and two to audit
 * (audit-sites.ts), and local servers speaking the AI engines' wire formats that the worker's
 * engines ask with the operator's keys (tests/support/engine-servers.ts). Prints `E2E_READY {json}` with the addresses when ready; stops everything on
 * SIGTERM.
 */

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Brewing guides for home baristas, from grind to cup</title>
<meta name="description" content="Step-by-step brewing guides for espresso, pour over and cold brew, with ratios, grind sizes and the mistakes to avoid at home.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="/">
</head><body><main><h1>Brewing guides</h1>
<p>Every guide starts with the ratio, then the grind, then the method. We test each one at home with ordinary kit.</p>
<h2>What ratio should I use for cold brew?</h2><p>One part coffee to eight parts water, steeped for sixteen hours in the fridge.</p>
<h2>How fine should espresso be ground?</h2><p>Fine enough that a double shot of eighteen grams runs in about twenty-eight seconds.</p>
</main></body></html>`;

/** A page on another origin that tries to make the signed-in browser change the gateway. */
const crossSite = (
  gateway: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title></head>
<body><h1>Another site</h1>
<form id="forged" method="post" action="${gateway}/auth/sign-out" enctype="text/plain"><input name="x" value="y"></form>
<script>
const results = {};
window.forge = async () => {
  for (const path of ["/auth/sign-out", "/auth/token"]) {
    try {
      const response = await fetch("${gateway}" + path, { method: "POST", credentials: "include", mode: "no-cors" });
      results[path] = response.type;
    } catch (error) {
      results[path] = String(error);
    }
  }
  return results;
};
</script></body></html>`;

const main = async () => {
  ensureDashboardBuilt();
  let gatewayUrl = "";
  const site = await startFixtureServer({
    "/": html(PAGE),
    "/guides/cold-brew": html(PAGE),
    // a page with little for an answer engine to read: no title, description or heading
    "/plain": html(`<!doctype html><html><head></head><body><div>Brewing, plainly.</div></body></html>`),
    "/robots.txt": text("User-agent: *\nAllow: /\n"),
    "/cross-site": (req, res) => html(crossSite(gatewayUrl))(req, res),
  });
  // a competitor's site on another loopback address: a page the engines cite in the brand's place
  const rival = await startFixtureServer({ "/compare": html(PAGE) }, undefined, "127.0.0.2");
  const audits = await startAuditSites();
  const engines = await startEngineServers();
  const database = await createTestDatabase();
  const stack = await startStack({
    databaseUrl: database.url,
    redisUrl: await testRedisUrl(),
    allowlist: [site.hostPort, rival.hostPort, audits.audited.hostPort, audits.held.hostPort],
    env: {
      SCAN_TIMEOUT_MS: "20000",
      RATE_LIMIT_ANONYMOUS: "100000",
      // every browser test signs up and in from 127.0.0.1, more than 30 in the throttle's 15
      // minutes; the throttle itself is tested in jest (tests/sessions.test.ts)
      SIGN_IN_LIMIT_ADDRESS: "100000",
      SIGN_UP: "open",
      // the queue dashboard exists, so Operations links to it
      ADMIN_TOKEN: "e2e-admin-token-0123456789",
      // regression alerts are signed, and refused without a secret to sign with
      WEBHOOK_SECRET: "e2e-webhook-secret-0123456789abcdef",
      // workspace engine keys are sealed under it, and refused (503) without it
      SITE_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      // visibility runs ask ChatGPT and Claude at the local servers, with the operator's keys
      OPENAI_API_KEY: KEYS.openai,
      OPENAI_BASE_URL: `${engines.openai.baseUrl}/v1`,
      ANTHROPIC_API_KEY: KEYS.anthropic,
      ANTHROPIC_BASE_URL: engines.anthropic.baseUrl,
      // and Perplexity, whose answers cite the pages a prompt names (`cites: <url> …`)
      PERPLEXITY_API_KEY: KEYS.perplexity,
      PERPLEXITY_BASE_URL: engines.perplexity.baseUrl,
      VISIBILITY_BACKOFF_MS: "200",
    },
  });
  gatewayUrl = stack.gateway.url;
  process.stdout.write(
    `E2E_READY ${JSON.stringify({
      E2E_GATEWAY_URL: gatewayUrl,
      E2E_SITE_URL: site.origin,
      E2E_RIVAL_SITE_URL: rival.origin,
      E2E_AUDIT_SITE_URL: audits.audited.origin,
      E2E_HELD_SITE_URL: audits.held.origin,
      E2E_DATABASE_URL: database.url,
    })}\n`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // a held robots.txt is answered first, so no worker waits on it while the stack stops
    await audits.close();
    await stack.close();
    await site.close();
    await rival.close();
    await engines.close();
    await database.drop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
