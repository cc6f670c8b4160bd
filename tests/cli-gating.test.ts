import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { junitProblems, parseCsv, sarifProblems } from "./support/report-schemas";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * The `scan` command gating a CI job, run as a CI job runs it: assertions from flags and from
 * .aeoscanrc.json on a passing and a failing page, through the API and in-process; the exit
 * codes; the report in each format, to stdout and to a file, validated against the published
 * schemas; colours on a terminal (a real pseudo-terminal from script(1)) and NO_COLOR/FORCE_COLOR.
 */

jest.setTimeout(300_000);

const BIN = resolve(__dirname, "../packages/cli/bin/scan.cjs");

const GOOD = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Gating a CI job on the scan of a well-kept page</title>
<meta name="description" content="A page with a title, a description and one heading, which the checks asserted on here all pass.">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head><body><main><h1>A well-kept page</h1><p>It has what the asserted checks look for.</p></main></body></html>`;

const BAD = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head>
<body><main><p>No title, no description, no heading.</p></main></body></html>`;

type Run = { code: number | null; stdout: string; stderr: string };

const run = (args: string[], env: Record<string, string | undefined>, cwd?: string): Promise<Run> =>
  new Promise((done) => {
    // only what the client reads: no SCAN_API_URL, NO_COLOR or FORCE_COLOR leaks in
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      cwd,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });

const quote = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/** The command on a real terminal: script(1) gives it a pseudo-terminal; stdout and stderr arrive merged. */
const runOnTerminal = (args: string[], env: Record<string, string | undefined>): Promise<Run> =>
  new Promise((done) => {
    const command = [process.execPath, BIN, ...args].map(quote).join(" ");
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm-256color", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stdout += chunk));
    child.on("close", (code) => done({ code, stdout, stderr: "" }));
  });

/** An ANSI colour or weight (SGR) sequence; the spinner's line erasing is not one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is looked for
const COLOUR = /\x1b\[(?:1|2|22|3[1-3]|39)m/;

afterAll(async () => {
  await stopContainers();
});

describe("scan as a CI gate", () => {
  let site: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let api: Record<string, string>;
  let inProcess: Record<string, string>;
  let dir: string;
  let bad: { overall: number; grade: string };

  beforeAll(async () => {
    site = await startFixtureServer({
      "/good": html(GOOD),
      "/bad": html(BAD),
      "/broken": html("<h1>down</h1>", 503),
      "/missing": html("<title>Not found</title><h1>Not found</h1>", 404),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      env: { RATE_LIMIT_AGENCY: "100000" },
    });
    const { key } = await createAccount(stack.db, "agency");
    api = { SCAN_API_URL: stack.gateway.url, SCAN_API_KEY: key };
    inProcess = { SCAN_ALLOWLIST: site.hostPort };
    dir = await mkdtemp(join(tmpdir(), "scan-gate-"));
    const scanned = await run([site.url("/bad"), "--mode", "quick", "--format", "json"], api);
    expect(scanned.code).toBe(0);
    const report = JSON.parse(scanned.stdout);
    bad = { overall: report.scores.overall, grade: report.grade };
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  describe("through the API", () => {
    it("passes a page that meets the assertions (exit 0) and fails one that does not (exit 1)", async () => {
      const gate = ["--mode", "quick", "--require-check", "title,meta-description,h1", "--min-grade", "F"];
      const good = await run([site.url("/good"), ...gate], api);
      expect(good.code).toBe(0);
      expect(good.stderr).toContain("Assertions: all 4 passed");
      expect(good.stdout).toMatch(/^Scan of /);

      const failing = await run([site.url("/bad"), ...gate], api);
      expect(failing.code).toBe(1);
      expect(failing.stderr).toContain("Assertions: 3 errors, 0 warnings, 1 passed");
      expect(failing.stderr).toMatch(/error {2}title\s+check title: fail, expected pass: /);
      expect(failing.stderr).toMatch(/error {2}meta-description\s+check meta-description: fail/);
      // the report itself is on stdout as always; the summary is on stderr
      expect(failing.stdout).toMatch(/fail\s+seo\s+critical\s+title/);
      expect(failing.stdout).not.toContain("Assertions");
    });

    it("judges scores and the grade against their minimums, at the error or the warn level", async () => {
      const at = await run([site.url("/bad"), "--mode", "quick", "--min-score", String(bad.overall)], api);
      expect(at.code).toBe(0);
      const above = await run([site.url("/bad"), "--mode", "quick", "--min-score", String(bad.overall + 1)], api);
      expect(above.code).toBe(1);
      expect(above.stderr).toContain(`overall score ${bad.overall} is below ${bad.overall + 1}`);
      const warned = await run(
        [
          site.url("/bad"),
          "--mode",
          "quick",
          "--assert",
          `categories:overall=warn:${bad.overall + 1}`,
          "--assert",
          "grade=warn:A+",
        ],
        api,
      );
      expect(warned.code).toBe(0);
      expect(warned.stderr).toContain("Assertions: 0 errors, 2 warnings, 0 passed");
      expect(warned.stderr).toContain(`warn   grade               grade ${bad.grade} is below A+`);
      const grade = await run([site.url("/bad"), "--mode", "quick", "--min-grade", "A+"], api);
      expect(grade.code).toBe(1);
    });

    it("takes mode and assertions from .aeoscanrc.json, with flags over it", async () => {
      const project = await mkdtemp(join(dir, "project-"));
      await writeFile(
        join(project, ".aeoscanrc.json"),
        JSON.stringify({
          mode: "quick",
          assertions: { title: "error", "categories:seo": ["warn", { minScore: 100 }], "llms-txt": "off" },
        }),
      );
      const failing = await run([site.url("/bad")], api, project);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toContain("(quick, ");
      expect(failing.stderr).toMatch(/Assertions: 1 error, 1 warning, 0 passed/);
      const overridden = await run([site.url("/bad"), "--assert", "title=off"], api, project);
      expect(overridden.code).toBe(0);
      expect(overridden.stderr).toMatch(/Assertions: 0 errors, 1 warning, 0 passed/);

      const elsewhere = join(dir, "gate.json");
      await writeFile(elsewhere, JSON.stringify({ assertions: { h1: ["error"] } }));
      const named = await run([site.url("/bad"), "--mode", "quick", "--config", elsewhere], api);
      expect(named.code).toBe(1);
      expect(named.stderr).toMatch(/error {2}h1 /);
    });

    it("writes each format to stdout, or to --output with the text report on stdout", async () => {
      const sarif = await run(
        [
          site.url("/bad"),
          "--mode",
          "quick",
          "--format",
          "sarif",
          "--sarif-locations",
          "github",
          "--require-check",
          "title",
        ],
        api,
      );
      expect(sarif.code).toBe(1);
      const log = JSON.parse(sarif.stdout);
      expect(sarifProblems(log)).toEqual([]);
      const title = log.runs[0].results.find((result: { ruleId: string }) => result.ruleId === "title");
      // located as GitHub code scanning takes it: no scheme (and ./ before a host with a port)
      expect(title.locations[0].physicalLocation.artifactLocation.uri).toBe(`./${site.hostPort}/bad`);
      expect(log.runs[0].artifacts[0].properties.url).toBe(site.url("/bad"));

      const file = join(dir, "report.xml");
      const junit = await run([site.url("/bad"), "--mode", "quick", "--format", "junit", "--output", file], api);
      expect(junit.code).toBe(0);
      expect(junit.stdout).toMatch(/^Scan of /);
      expect(junit.stderr).toContain(`wrote the junit report to ${file}`);
      const xml = await readFile(file, "utf8");
      expect(await junitProblems(xml)).toEqual([]);
      expect(xml).toContain('<testcase name="title: ');

      const csv = await run([site.url("/bad"), "--mode", "quick", "--format", "csv"], api);
      const rows = parseCsv(csv.stdout);
      expect(rows).toHaveLength(20);
      expect(rows.find((row) => row.check_id === "title")).toMatchObject({ status: "fail", area: "seo" });

      const json = await run([site.url("/bad"), "--mode", "quick", "--json", "--require-check", "title"], api);
      expect(JSON.parse(json.stdout)).toMatchObject({
        url: site.url("/bad"),
        status: "completed",
        assertions: [{ key: "title", level: "error", passed: false, actual: "fail", expected: "pass" }],
      });
    });

    it("exits 1 when the page does not answer, with the failure in the report, and 0 when that is allowed", async () => {
      const failed = await run([site.url("/broken"), "--mode", "quick", "--format", "sarif", "--min-score", "1"], api);
      expect(failed.code).toBe(1);
      const log = JSON.parse(failed.stdout);
      expect(sarifProblems(log)).toEqual([]);
      expect(log.runs[0].invocations[0].executionSuccessful).toBe(false);
      expect(failed.stderr).not.toContain("Assertions");
      expect(failed.stderr).toMatch(
        /scan: the page failed: it did not answer: .*503.* Exit 1; --allow-page-failure lets it pass\./,
      );
      const allowed = await run([site.url("/broken"), "--mode", "quick", "--allow-page-failure"], api);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toMatch(/Failed: .*503.* \(upstream_failure\)/);
      expect(allowed.stderr).toContain("Allowed by --allow-page-failure.");
    });

    it("exits 1 when the page answers 4xx, whatever the assertions say, and 0 when that is allowed", async () => {
      const gate = ["--mode", "quick", "--min-grade", "F"];
      const missing = await run([site.url("/missing"), ...gate], api);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("Assertions: all 1 passed");
      expect(missing.stderr).toMatch(/scan: the page failed: .*404/);
      expect(missing.stdout).toMatch(/fail\s+seo\s+critical\s+http-status/);
      const allowed = await run([site.url("/missing"), ...gate, "--allow-page-failure"], api);
      expect(allowed.code).toBe(0);
      // allowed, the assertions still gate
      const gated = await run(
        [site.url("/missing"), ...gate, "--allow-page-failure", "--require-check", "meta-description"],
        api,
      );
      expect(gated.code).toBe(1);
      expect(gated.stderr).toMatch(/error {2}meta-description\s+check meta-description: fail/);
      // a page that answers is no page failure
      const good = await run([site.url("/good"), ...gate], api);
      expect(good.code).toBe(0);
      expect(good.stderr).not.toContain("the page failed");
    });

    it("exits 2 on bad usage and bad config, before scanning", async () => {
      const cases: Array<[string[], string]> = [
        [["--require-check", "titel"], 'assertion "titel": no check has this id'],
        [["--min-score", "seo=lots"], 'assertion "categories:seo"'],
        [["--min-grade", "E"], 'assertion "grade"'],
        [["--assert", "title"], "--assert title: write key=level"],
        [["--format", "pdf"], "--format must be one of text, json, csv, junit, sarif"],
        [["--sarif-locations", "file"], "--sarif-locations must be url or github"],
        [["--json", "--format", "csv"], "contradict"],
        [["--config", join(dir, "missing.json")], "cannot read the config file"],
      ];
      for (const [args, message] of cases) {
        const result = await run([site.url("/bad"), ...args], api);
        expect([args.join(" "), result.code]).toEqual([args.join(" "), 2]);
        expect(result.stderr).toContain(message);
      }
      const broken = join(dir, "broken.json");
      await writeFile(broken, "{ assertions: ");
      expect((await run([site.url("/bad"), "--config", broken], api)).stderr).toContain("is not JSON");
      await writeFile(broken, JSON.stringify({ assertion: {} }));
      const unknownKey = await run([site.url("/bad"), "--config", broken], api);
      expect(unknownKey.code).toBe(2);
      expect(unknownKey.stderr).toContain('unknown key "assertion"');
      // none of these reached the API
      expect(await stack.db.scan.count({ where: { url: site.url("/bad"), mode: "full" } })).toBe(0);
    });
  });

  describe("in-process", () => {
    it("gates the same way without an API", async () => {
      const gate = ["--mode", "quick", "--require-check", "title", "--format", "junit"];
      const good = await run([site.url("/good"), ...gate], inProcess);
      expect(good.code).toBe(0);
      expect(await junitProblems(good.stdout)).toEqual([]);
      const failing = await run([site.url("/bad"), ...gate], inProcess);
      expect(failing.code).toBe(1);
      expect(failing.stderr).toMatch(/error {2}title\s+check title: fail/);
      expect(await junitProblems(failing.stdout)).toEqual([]);
      const broken = await run([site.url("/broken"), "--mode", "quick"], inProcess);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain("scan: the page failed: it did not answer");
      expect((await run([site.url("/broken"), "--mode", "quick", "--allow-page-failure"], inProcess)).code).toBe(0);
      expect((await run([site.url("/missing"), "--mode", "quick"], inProcess)).code).toBe(1);
    });
  });

  describe("colours", () => {
    const gate = () => [site.url("/bad"), "--mode", "quick", "--require-check", "title"];

    it("are off in a pipe, and on with FORCE_COLOR", async () => {
      const piped = await run(gate(), api);
      expect(piped.stdout).not.toMatch(COLOUR);
      expect(piped.stderr).not.toMatch(COLOUR);
      const forced = await run(gate(), { ...api, FORCE_COLOR: "1" });
      expect(forced.code).toBe(1);
      expect(forced.stdout).toContain("\x1b[31mfail");
      expect(forced.stderr).toContain("\x1b[31merror");
      // FORCE_COLOR wins over NO_COLOR, as in Node; FORCE_COLOR=0 turns colours off
      expect((await run(gate(), { ...api, FORCE_COLOR: "1", NO_COLOR: "1" })).stdout).toMatch(COLOUR);
      expect((await run(gate(), { ...api, FORCE_COLOR: "0" })).stdout).not.toMatch(COLOUR);
    });

    it("are on on a terminal, and off there with NO_COLOR", async () => {
      const terminal = await runOnTerminal(gate(), api);
      expect(terminal.code).toBe(1);
      expect(terminal.stdout).toContain("\x1b[31mfail");
      expect(terminal.stdout).toContain("\x1b[31merror");
      const noColour = await runOnTerminal(gate(), { ...api, NO_COLOR: "1" });
      expect(noColour.code).toBe(1);
      expect(noColour.stdout).toMatch(/fail\s+seo\s+critical\s+title/);
      expect(noColour.stdout).not.toMatch(COLOUR);
    });

    it("never go into a file", async () => {
      const file = join(dir, "report.txt");
      const result = await run([...gate(), "--output", file], { ...api, FORCE_COLOR: "1" });
      expect(result.stdout).toMatch(COLOUR);
      expect(await readFile(file, "utf8")).not.toMatch(COLOUR);
    });
  });
});
