/**
 * Lighthouse 13.5's agentic-browsing verdicts on the pages the agentic checks are measured
 * against: `pnpm exec tsx scripts/lighthouse-agentic.ts [--lighthouse <dir>] [--only <id-prefix>] [--parallel <n>]`.
 * Serves each site (tests/fixtures/agentic/<name>/ and both shared corpora's pages) over loopback,
 * each on its own port since llms.txt and /.well-known/ai-catalog.json belong to an origin, runs
 * Lighthouse from `<dir>` (default ../lh13 beside the repository) with headless Chromium ($CHROME_PATH or --chrome)
 * and WebMCP enabled as the scanner enables it (WEBMCP_FLAG),
 * and writes each audit's score per page to docs/reports/lighthouse-agentic.json: 1 pass, 0.9
 * pass with warnings (ard-schema), 0 fail, null not applicable; webmcp-form-coverage, informative
 * in Lighthouse (always 1), is written 1 where every form is annotated and 0 where it lists forms
 * without annotations; cumulative-layout-shift's score is
 * Lighthouse's (0.9 and above: CLS at most 0.1). Only verdicts and ids are
 * written, no page copies. Lighthouse 13.5 needs Node >= 22.19, which the folder brings.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { WEBMCP_FLAG } from "@scan/scanner";
import { type AgenticSite, allCorpusSites, fixtureSites, serveSite } from "../tests/support/agentic-sites";

const ROOT = resolve(__dirname, "..");
const REPORT = join(ROOT, "docs/reports/lighthouse-agentic.json");
/**
 * The audits of the category this service overlaps: the site files, and those measured in the
 * render (axe tree, WebMCP, CLS). Pages measured before the render-time audits were added keep
 * only the first two.
 */
export const AGENTIC_AUDITS = [
  "llms-txt",
  "ard-schema",
  "agent-accessibility-tree",
  "webmcp-registered-tools",
  "webmcp-form-coverage",
  "webmcp-schema-validity",
  "cumulative-layout-shift",
] as const;
const LIGHTHOUSE_VERSION = "13.5.0";

const { values } = parseArgs({
  options: {
    lighthouse: { type: "string", default: resolve(ROOT, "../lh13") },
    only: { type: "string" },
    chrome: { type: "string", default: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
    /** Lighthouse runs at once, each with its own site, browser and profile */
    parallel: { type: "string", default: "1" },
  },
});
const lhDir = resolve(values.lighthouse);
const node = join(lhDir, "node_modules/.bin/node");
if (!existsSync(node) || !existsSync(join(lhDir, "node_modules/lighthouse/core/index.js"))) {
  console.error(
    `Lighthouse ${LIGHTHOUSE_VERSION} is not installed in ${lhDir}. Install it outside the repository:\n` +
      `  mkdir -p ${lhDir} && cd ${lhDir} && npm install node@22.23.3 lighthouse@${LIGHTHOUSE_VERSION}\n` +
      "or name another folder with --lighthouse <dir>.",
  );
  process.exit(1);
}
const installed = JSON.parse(readFileSync(join(lhDir, "node_modules/lighthouse/package.json"), "utf8")).version;
if (installed !== LIGHTHOUSE_VERSION) {
  console.error(`${lhDir} holds Lighthouse ${installed}; the report is for ${LIGHTHOUSE_VERSION}.`);
  process.exit(1);
}

type Scores = Partial<Record<(typeof AGENTIC_AUDITS)[number], number | null>>;

/**
 * Every host but loopback fails to resolve at once, as the scanner blocks every request to another
 * origin. Without it the corpus pages' scripts from their original hosts hang unanswered here, the
 * parser waits on them, and Lighthouse gives up at max-wait-for-load on a half-parsed document
 * (on corpus/buzzfeed-1: no form, input or label yet).
 */
const LOOPBACK_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1";

type Audits = Record<string, { score: number | null; scoreDisplayMode: string; details?: { items?: unknown[] } }>;

/**
 * A Lighthouse process of Lighthouse's own Node with one Chromium, kept for many pages: the
 * command-line tool would start both for every page. Reads a URL a line, answers the audits a line.
 */
const RUNNER = `
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
const [lhDir, chromePath, profile, onlyAudits, ...chromeFlags] = process.argv.slice(1);
mkdirSync(profile, { recursive: true });
const { default: lighthouse } = await import(pathToFileURL(lhDir + "/node_modules/lighthouse/core/index.js").href);
const launcher = await import(pathToFileURL(lhDir + "/node_modules/chrome-launcher/dist/index.js").href);
const chrome = await launcher.launch({ chromePath, userDataDir: profile, chromeFlags });
const flags = {
  port: chrome.port, output: "json", logLevel: "silent", onlyAudits: onlyAudits.split(","),
  throttlingMethod: "provided", disableFullPageScreenshot: true,
  // the pages are local and static: the defaults' waits for quiet only add time
  maxWaitForLoad: 10000, pauseAfterLoadMs: 0, networkQuietThresholdMs: 0, cpuQuietThresholdMs: 0,
};
for await (const url of createInterface({ input: process.stdin })) {
  try {
    const result = await lighthouse(url, flags);
    process.stdout.write(JSON.stringify({ audits: result.lhr.audits }) + "\\n");
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: String(error) }) + "\\n");
  }
}
chrome.kill();
`;

type Lane = { run: (url: string) => Promise<Audits>; close: () => void };

const startLane = (profile: string): Lane => {
  const child = spawn(
    node,
    [
      "--input-type=module",
      "-e",
      RUNNER,
      lhDir,
      values.chrome,
      profile,
      AGENTIC_AUDITS.join(","),
      "--headless=new",
      "--no-sandbox",
      WEBMCP_FLAG,
      LOOPBACK_ONLY,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => waiting.shift()?.(line));
  child.on("exit", (code) => {
    for (const answer of waiting.splice(0)) answer(JSON.stringify({ error: `Lighthouse exited (${code})` }));
  });
  return {
    run: (url) =>
      new Promise((done, failed) => {
        waiting.push((line) => {
          const answer = JSON.parse(line) as { audits?: Audits; error?: string };
          if (answer.audits) done(answer.audits);
          else failed(new Error(`${url}: ${answer.error}`));
        });
        child.stdin.write(`${url}\n`);
      }),
    close: () => child.stdin.end(),
  };
};

const scoresOf = (url: string, audits: Audits): Scores => {
  const scores = {} as Scores;
  for (const id of AGENTIC_AUDITS) {
    const audit = audits[id];
    if (!audit) throw new Error(`${url}: no ${id} audit`);
    if (audit.scoreDisplayMode === "error") throw new Error(`${url}: ${id} failed in Lighthouse`);
    if (audit.scoreDisplayMode === "notApplicable") scores[id] = null;
    // informative: a pass where every form is annotated, a list of the forms that are not otherwise
    else if (id === "webmcp-form-coverage") scores[id] = audit.details?.items?.length ? 0 : 1;
    else scores[id] = audit.score;
  }
  return scores;
};

/** written after every page, so that an interrupted run keeps what it measured */
const save = (pages: Record<string, Scores>) => {
  const sorted = Object.fromEntries(Object.entries(pages).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(
    REPORT,
    `${JSON.stringify({ lighthouse: LIGHTHOUSE_VERSION, chromium: `Debian Chromium, headless, ${WEBMCP_FLAG}, ${LOOPBACK_ONLY}`, audits: AGENTIC_AUDITS, pages: sorted }, null, 2)}\n`,
  );
};

const main = async () => {
  const sites: AgenticSite[] = [...fixtureSites(), ...allCorpusSites()].filter(
    (site) => !values.only || site.id.startsWith(values.only),
  );
  const scratch = mkdtempSync(join(tmpdir(), "lh-agentic-"));
  const previous = existsSync(REPORT)
    ? (JSON.parse(readFileSync(REPORT, "utf8")) as { pages: Record<string, Scores> }).pages
    : {};
  const pages: Record<string, Scores> = values.only ? { ...previous } : {};
  const queue = [...sites];
  const lane = async (index: number) => {
    const lighthouse = startLane(join(scratch, `profile-${index}`));
    try {
      for (let site = queue.shift(); site; site = queue.shift()) {
        const served = await serveSite(site);
        try {
          const url = `${served.origin}${site.pagePath}`;
          pages[site.id] = scoresOf(url, await lighthouse.run(url));
          save(pages);
          console.log(site.id, JSON.stringify(pages[site.id]));
        } catch (error) {
          // left out of the report, so that the agreement tests notice the page is missing
          console.error(site.id, (error as Error).message);
        } finally {
          await served.close();
        }
      }
    } finally {
      lighthouse.close();
    }
  };
  try {
    const lanes = Math.max(1, Number.parseInt(values.parallel, 10) || 1);
    await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`wrote ${Object.keys(pages).length} pages to ${REPORT}`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
