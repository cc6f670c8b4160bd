/**
 * The corpus verdicts before and after a change of rules, with every verdict that changed and
 * why: `pnpm exec tsx scripts/verdict-changes.ts --before <commit>` checks the commit out in a
 * temporary worktree, installs it (offline), runs its checks on every corpus page there
 * (scripts/verdict-changes/extract.ts, which only uses what every version of the checks package
 * offers), runs this tree's checks on the same pages, removes the worktree and writes
 * docs/reports/verdict-changes.md. `--before-json <file>` compares with a saved run instead
 * (`tsx scripts/verdict-changes/extract-cli.ts ../shared/corpus/pages <file>` writes one);
 * `--save <dir>` keeps both runs as JSON; `--rendered reserialized` makes the rendered page the
 * saved HTML parsed and serialised again, so that the served and rendered HTML differ as in a
 * real scan (scripts/verdict-changes/extract.ts). The Lighthouse agreement of the real scans is read from
 * docs/reports/corpus-verdicts.md as the corpus test wrote it in each tree: run
 * tests/corpus.test.ts first so that this tree's is current. `--corpus corpus-parser` judges the
 * second shared corpus (pages never used to write a rule) instead, with its own Lighthouse verdicts.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { sharedCorpus } from "@scan/checks/testing";
import { agreesWithLighthouse, LIGHTHOUSE_AUDITS } from "../tests/support/corpus";
import { extractVerdicts, type RenderedHtml, type Verdicts } from "./verdict-changes/extract";
import { type Agreement, type Disagreement, renderReport } from "./verdict-changes/report";

const ROOT = resolve(__dirname, "..");
const REPORT = join(ROOT, "docs/reports/verdict-changes.md");
const CORPUS_REPORT = "docs/reports/corpus-verdicts.md";

const run = (command: string, args: string[], cwd: string): string =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/** The verdicts of the checks at `commit`, computed in a worktree of their own that is removed after. */
const verdictsAt = (commit: string, rendered: RenderedHtml): Verdicts => {
  const scratch = mkdtempSync(join(tmpdir(), "verdicts-"));
  const tree = join(scratch, "tree");
  run("git", ["worktree", "add", "--detach", tree, commit], ROOT);
  try {
    run("pnpm", ["install", "--frozen-lockfile", "--offline"], tree);
    const into = join(tree, "scripts/verdict-changes");
    mkdirSync(into, { recursive: true });
    for (const file of ["extract.ts", "extract-cli.ts"])
      copyFileSync(join(__dirname, "verdict-changes", file), join(into, file));
    const out = join(scratch, "verdicts.json");
    run("pnpm", ["exec", "tsx", "scripts/verdict-changes/extract-cli.ts", PAGES, out, rendered], tree);
    return JSON.parse(readFileSync(out, "utf8"));
  } finally {
    run("git", ["worktree", "remove", "--force", tree], ROOT);
    rmSync(scratch, { recursive: true, force: true });
  }
};

/** "## Lighthouse agreement: 858 of 859 verdicts agree" of a corpus report. */
const reportedAgreement = (markdown: string): Agreement | null => {
  const match = /## Lighthouse agreement: (\d+) of (\d+) verdicts agree/.exec(markdown);
  return match ? { agree: Number(match[1]), compared: Number(match[2]) } : null;
};

/** The Lighthouse agreement of browser-free verdicts, full scan only, scored as the corpus test scores it. */
const snapshotAgreement = (verdicts: Verdicts): Agreement & { disagreements: Disagreement[] } => {
  const lighthouse: Record<string, Record<string, number | null>> = JSON.parse(
    readFileSync(join(CORPUS, "lighthouse-seo.json"), "utf8"),
  );
  let agree = 0;
  let compared = 0;
  const disagreements: Disagreement[] = [];
  for (const [page, checks] of Object.entries(verdicts)) {
    for (const [id, verdict] of Object.entries(checks)) {
      const audit = LIGHTHOUSE_AUDITS[id];
      const score = audit ? lighthouse[page]?.[audit] : undefined;
      if (score === undefined || score === null) continue;
      compared++;
      if (agreesWithLighthouse(verdict.status, score)) agree++;
      else disagreements.push({ page, check: id });
    }
  }
  return { agree, compared, disagreements };
};

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    "before-json": { type: "string" },
    save: { type: "string" },
    out: { type: "string", default: REPORT },
    rendered: { type: "string", default: "same" },
    corpus: { type: "string", default: "corpus" },
  },
});
const corpusName = values.corpus;
if (corpusName !== "corpus" && corpusName !== "corpus-parser") {
  console.error("--corpus must be corpus (the rules' own pages) or corpus-parser (pages never used to write a rule)");
  process.exit(2);
}
/** the shared corpus's folder and pages, absolute paths: both trees read the same pages */
const CORPUS = sharedCorpus(corpusName);
const PAGES = join(CORPUS, "pages");
const rendered = values.rendered;
if (rendered !== "same" && rendered !== "reserialized") {
  console.error(
    "--rendered must be same (the saved HTML is the rendered page) or reserialized (parsed and serialised again)",
  );
  process.exit(2);
}
if (!values.before && !values["before-json"]) {
  console.error(
    "usage: tsx scripts/verdict-changes.ts --before <commit> | --before-json <file> [--corpus corpus|corpus-parser] [--save <dir>] [--out <md>]",
  );
  process.exit(2);
}

const before: Verdicts = values.before
  ? verdictsAt(values.before, rendered)
  : JSON.parse(readFileSync(values["before-json"] as string, "utf8"));
const after = extractVerdicts(PAGES, rendered);
const head = run("git", ["rev-parse", "--short", "HEAD"], ROOT).trim();
if (values.save) {
  mkdirSync(values.save, { recursive: true });
  writeFileSync(join(values.save, "before.json"), `${JSON.stringify(before, null, 1)}\n`);
  writeFileSync(join(values.save, "after.json"), `${JSON.stringify(after, null, 1)}\n`);
}
const beforeReport = values.before ? run("git", ["show", `${values.before}:${CORPUS_REPORT}`], ROOT) : "";
const SCANNED = join(ROOT, "docs/reports/corpus-verdicts.json");
const markdown = renderReport({
  lighthouseChecks: Object.keys(LIGHTHOUSE_AUDITS),
  // the real scans and the corpus test's agreement are of the rules' own corpus
  scanned: corpusName === "corpus" && existsSync(SCANNED) ? JSON.parse(readFileSync(SCANNED, "utf8")) : null,
  corpus: corpusName,
  before: {
    label: values.before ? `${values.before}` : (values["before-json"] as string),
    verdicts: before,
    lighthouse: corpusName === "corpus" ? reportedAgreement(beforeReport) : null,
    snapshotLighthouse: snapshotAgreement(before),
  },
  after: {
    label: `${head} (this tree)`,
    verdicts: after,
    lighthouse: corpusName === "corpus" ? reportedAgreement(readFileSync(join(ROOT, CORPUS_REPORT), "utf8")) : null,
    snapshotLighthouse: snapshotAgreement(after),
  },
  rendered,
  command: `pnpm exec tsx scripts/verdict-changes.ts ${process.argv.slice(2).join(" ")}`,
});
writeFileSync(values.out, markdown);
console.log(`wrote ${values.out}`);
