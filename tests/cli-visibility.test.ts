import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createAccount } from "./support/accounts";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";
import { stopContainers } from "./support/services";
import { api, type Stack } from "./support/stack";
import { startVisibilityStack, type VisibilityStack } from "./support/visibility-stack";

/**
 * `scan visibility`, run as a user runs it, against a stack whose worker asks the local ChatGPT
 * server (the vendor's wire format through its own client library): one prompt, two samples.
 * The answer names Acme and cites three pages of a competitor's local site, none of the brand's:
 * one a page to scan, one that answers 500 and one at an address the address policy refuses.
 */

const COMPETITOR_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Globex vs Acme: project trackers compared</title>
<meta name="description" content="How Globex and Acme compare on price and features for small teams."></head>
<body><main><h1>Globex vs Acme</h1><p>Globex suits teams of up to 20 people.</p></main></body></html>`;

jest.setTimeout(300_000);

const BIN = resolve(__dirname, "../packages/cli/bin/scan.cjs");

type Run = { code: number | null; stdout: string; stderr: string };

const run = (args: string[], env: Record<string, string | undefined>): Promise<Run> =>
  new Promise((done) => {
    const child = spawn(process.execPath, [BIN, "visibility", ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });

afterAll(() => stopContainers());

describe("scan visibility on the command line", () => {
  let visibility: VisibilityStack;
  let stack: Stack;
  let rival: FixtureServer;
  let env: Record<string, string>;
  let siteId: string;
  let runId = "";
  // a web port on a loopback address nobody allowed: the address policy refuses it
  const refusedUrl = "http://127.0.0.3/hidden";

  beforeAll(async () => {
    // the competitor's site on a loopback address of its own, allowed at its exact host:port only
    rival = await startFixtureServer(
      {
        "/compare": (_req, res) =>
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(COMPETITOR_PAGE),
        "/broken": (_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("internal error"),
      },
      undefined,
      "127.0.0.2",
    );
    visibility = await startVisibilityStack({
      vendors: ["openai"],
      allowlist: ["acme.com", "acme.org", rival.hostPort],
    });
    stack = visibility.stack;
    const { key } = await createAccount(stack.db, "pro");
    env = { SCAN_API_URL: stack.gateway.url, SCAN_API_KEY: key };
    const call = (method: string, path: string, body: unknown) =>
      api(stack.gateway.url, path, { method, body, headers: { "x-api-key": key } });
    const site = await call("POST", "/api/v1/sites", { url: "https://acme.com", name: "Acme" });
    siteId = (site.body as { data: { id: string } }).data.id;
    const profile = await call("PUT", `/api/v1/sites/${siteId}/visibility`, {
      brand_names: ["Acme"],
      brand_domains: ["acme.org"],
      samples_per_prompt: 2,
      engines: ["chatgpt"],
    });
    expect(profile.status).toBe(200);
    const text = `Which tracker suits a small team? cites: ${rival.url("/compare")} ${rival.url("/broken")} ${refusedUrl}`;
    const prompt = await call("POST", `/api/v1/sites/${siteId}/prompts`, { text });
    expect(prompt.status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await visibility?.close();
    await rival?.close();
  });

  it("starts a run, waits for it, prints each engine's rates with their intervals, and passes a met minimum", async () => {
    const result = await run([siteId, "--wait", "--min-mention-rate", "0.5", "--engine", "chatgpt"], env);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("✓ chatgpt mention rate 100 %")]);
    // progress on stderr, a line per change
    expect(result.stderr).toMatch(/visibility run [0-9a-f-]{36}: (queued|running|completed) \d\/2 samples/);
    runId = /^visibility run ([0-9a-f-]{36})/.exec(result.stdout)?.[1] ?? "";
    const stored = await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } });
    expect(stored).toMatchObject({ siteId, status: "completed", planned: 2, done: 2 });
    expect(await stack.db.visibilitySample.count({ where: { runId, brandMentioned: true, brandCited: false } })).toBe(
      2,
    );
    expect(result.stdout).toContain("2/2 samples answered, 0 failed");
    // Wilson 95 % for 2 of 2: 34 %–100 %; for 0 of 2: 0 %–66 %
    expect(result.stdout).toMatch(/chatgpt\s+100 % \(34 %–100 %, n=2\)\s+0 % \(0 %–66 %, n=2\)/);
  });

  it("judges the point estimate: a citation rate of 0 below 0.3 fails (exit 1) though its interval reaches 66 %", async () => {
    const result = await run(["--run", runId, "--min-citation-rate", "0.3", "--json"], env);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { id: string; status: string; assertions: Record<string, unknown>[] };
    expect(json).toMatchObject({ id: runId, status: "completed" });
    expect(json.assertions).toEqual([
      expect.objectContaining({
        engine: "chatgpt",
        rate: "citation_rate",
        minimum: 0.3,
        passed: false,
        actual: 0,
        n: 2,
      }),
    ]);
    expect((json.assertions[0]?.high as number) > 0.3).toBe(true);
    expect(result.stderr).toContain("✗ chatgpt citation rate 0 % (95 % 0 %–66 %) < minimum 30 %");
    // no second run was started
    expect(await stack.db.visibilityRun.count({ where: { siteId } })).toBe(1);
  });

  it("scans a completed run's cited pages and lists them side by side, once however often it is asked", async () => {
    const result = await run(["--run", runId, "--cited-pages"], env);
    expect([result.code, result.stderr]).toEqual([
      0,
      expect.stringMatching(/cited pages of run [0-9a-f-]{36}: 3\/3 pages judged/),
    ]);
    // the answers cite none of the brand's pages (its domain is acme.org): all three are cited in
    // its place; the page is scanned, the one answering 500 fails and the refused one is not scanned
    expect(result.stdout).toContain(
      "cited pages: 3 (1 scanned, 0 pending, 1 failed, 1 refused; 0 recent scans reused)",
    );
    const escaped = (url: string) => url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    expect(result.stdout).toMatch(
      new RegExp(`competitor\\s+\\d+\\s+completed\\s+2\\s+${escaped(rival.url("/compare"))}`),
    );
    expect(result.stdout).toMatch(new RegExp(`competitor\\s+–\\s+failed\\s+2\\s+${escaped(rival.url("/broken"))}`));
    expect(result.stdout).toMatch(new RegExp(`competitor\\s+–\\s+refused\\s+2\\s+${escaped(refusedUrl)}`));
    expect(result.stdout).toMatch(new RegExp(`^\\s+failed: \\S+: ${escaped(rival.url("/broken"))} answered 500$`, "m"));
    expect(result.stdout).toMatch(/^\s+refused: .*(loopback|private|reserved).*$/m);
    const json = await run(["--run", runId, "--cited-pages", "--json"], env);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { id: string; cited_pages: { started: boolean; counts: unknown } };
    expect(parsed).toMatchObject({
      id: runId,
      cited_pages: { started: true, counts: { pages: 3, completed: 1, failed: 1, refused: 1, pending: 0 } },
    });
    expect(await stack.db.visibilityCitedPage.count({ where: { runId } })).toBe(3);
    // asked twice, each page was scanned once, and the refused address never
    expect(await stack.db.scan.count({ where: { url: { contains: "127.0.0.2" } } })).toBe(2);
    expect(await stack.db.scan.count({ where: { url: { contains: "127.0.0.3" } } })).toBe(0);
  });

  it("refuses bad usage with exit 2 and an API refusal with exit 3", async () => {
    for (const args of [
      [siteId, "--min-citation-rate", "1.5"],
      [siteId, "--engine", "altavista"],
      ["not-a-uuid"],
      [siteId, "--run", runId],
      ["--run", runId, "--engine", "claude"],
    ]) {
      const result = await run(args, env);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
    expect((await run([siteId], { SCAN_API_URL: stack.gateway.url })).code).toBe(2);
    const unknown = await run(["--run", "00000000-0000-4000-8000-000000000000"], env);
    expect([unknown.code, unknown.stderr]).toEqual([3, expect.stringContaining("No visibility run with id")]);
  });
});
