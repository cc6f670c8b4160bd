/**
 * Lighthouse 13.5's agentic-browsing verdicts on the pages the agentic checks are measured
 * against: `pnpm exec tsx scripts/lighthouse-agentic.ts [--lighthouse <dir>] [--only <id-prefix>]`.
 * Serves each site (tests/fixtures/agentic/<name>/ and the shared corpus's pages) over loopback,
 * each on its own port since llms.txt and /.well-known/ai-catalog.json belong to an origin, runs
 * Lighthouse from `<dir>` (default ../lh13 beside the repository) with headless Chromium ($CHROME_PATH or --chrome),
 * and writes each audit's score per page to docs/reports/lighthouse-agentic.json: 1 pass, 0.9
 * pass with warnings (ard-schema), 0 fail, null not applicable; cumulative-layout-shift's score is
 * Lighthouse's (0.9 and above: CLS at most 0.1). Only verdicts and ids are
 * written, no page copies. Lighthouse 13.5 needs Node >= 22.19, which the folder brings.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type AgenticSite, corpusSites, fixtureSites, serveSite } from "../tests/support/agentic-sites";

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
  },
});
const lhDir = resolve(values.lighthouse);
const node = join(lhDir, "node_modules/.bin/node");
const cli = join(lhDir, "node_modules/lighthouse/cli/index.js");
if (!existsSync(node) || !existsSync(cli)) {
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

const runLighthouse = (url: string, out: string, profile: string): Promise<void> =>
  new Promise((done, failed) => {
    execFile(
      node,
      [
        cli,
        url,
        `--chrome-flags=--headless=new --no-sandbox --user-data-dir=${profile}`,
        `--only-audits=${AGENTIC_AUDITS.join(",")}`,
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        "--throttling-method=provided",
        "--disable-full-page-screenshot",
        // the pages are local and static: the defaults' waits for quiet only add time
        "--max-wait-for-load=10000",
        "--pause-after-load-ms=0",
        "--network-quiet-threshold-ms=0",
        "--cpu-quiet-threshold-ms=0",
      ],
      { timeout: 120_000, env: { ...process.env, CHROME_PATH: values.chrome } },
      (error, _stdout, stderr) => (error ? failed(new Error(`${url}: ${stderr || error.message}`)) : done()),
    );
  });

const scoresOf = (file: string): Scores => {
  const lhr = JSON.parse(readFileSync(file, "utf8")) as {
    audits: Record<string, { score: number | null; scoreDisplayMode: string }>;
  };
  const scores = {} as Scores;
  for (const id of AGENTIC_AUDITS) {
    const audit = lhr.audits[id];
    if (!audit) throw new Error(`${file}: no ${id} audit`);
    scores[id] = audit.scoreDisplayMode === "notApplicable" ? null : audit.score;
  }
  return scores;
};

/** written after every page, so that an interrupted run keeps what it measured */
const save = (pages: Record<string, Scores>) => {
  const sorted = Object.fromEntries(Object.entries(pages).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(
    REPORT,
    `${JSON.stringify({ lighthouse: LIGHTHOUSE_VERSION, chromium: "Debian Chromium, headless", audits: AGENTIC_AUDITS, pages: sorted }, null, 2)}\n`,
  );
};

const main = async () => {
  const sites: AgenticSite[] = [...fixtureSites(), ...corpusSites()].filter(
    (site) => !values.only || site.id.startsWith(values.only),
  );
  const scratch = mkdtempSync(join(tmpdir(), "lh-agentic-"));
  const previous = existsSync(REPORT)
    ? (JSON.parse(readFileSync(REPORT, "utf8")) as { pages: Record<string, Scores> }).pages
    : {};
  const pages: Record<string, Scores> = values.only ? { ...previous } : {};
  try {
    for (const site of sites) {
      const served = await serveSite(site);
      try {
        const out = join(scratch, "lhr.json");
        await runLighthouse(`${served.origin}${site.pagePath}`, out, join(scratch, "profile"));
        pages[site.id] = scoresOf(out);
        save(pages);
        console.log(site.id, JSON.stringify(pages[site.id]));
      } finally {
        await served.close();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`wrote ${Object.keys(pages).length} pages to ${REPORT}`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
