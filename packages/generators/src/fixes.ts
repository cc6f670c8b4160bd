import { allChecks, preparePage, runChecks, scoreChecks } from "@scan/checks";
import type { CheckResult, CheckStatus, Grade, Snapshot, TextResource } from "@scan/contract";
import { z } from "zod";
import { generateJsonLd, type JsonLdFix } from "./json-ld";
import { generateLlmsTxt, type TextFileFix } from "./llms-txt";
import { pageFacts } from "./page-facts";
import { generateRobotsTxt } from "./robots-txt";

/**
 * Which generated file may fix which check. A file is produced when one of its checks is asked
 * for (or when nothing is asked); once it has been proven on a copy of the page (`fixes`), its
 * `addresses` lists only those of them that pass.
 */
export const FIX_CHECKS = {
  llmsTxt: ["llms-txt", "llms-txt-format"],
  jsonLd: [
    ...["structured-data", "organization-schema", "article-schema", "faq-schema", "breadcrumb-schema"],
    ...["author", "publish-date"],
  ],
  robotsTxt: ["ai-search-access", "robots-txt"],
} as const;

const CHECK_IDS = allChecks.map((check) => check.id) as [string, ...string[]];

/** The options of `fixes` as a caller sends them: check ids of the catalogue, each at most once. */
export const FixOptions = z.strictObject({
  issues: z
    .array(z.enum(CHECK_IDS, { error: "must be a check id of the catalogue (checks.md), such as structured-data" }))
    .max(CHECK_IDS.length)
    .optional(),
});
export type FixOptions = z.infer<typeof FixOptions>;

/** A check a file is meant to fix that does not pass once it is in place, and what the site's owner must still supply. */
export type StillToSupply = { id: string; before: CheckStatus; after: CheckStatus; what: string };

/** A generated file as proven on a copy of the page. */
type Proven<T> = Omit<T, "addresses" | "needs"> & {
  /** the checks this file makes pass: each passes once the file is in place */
  addresses: string[];
  /** the scan's verdicts on those checks, when the scan's results were given */
  verdicts: Record<string, CheckStatus>;
  /** the checks it is meant to fix that still do not pass with it, and what the owner must supply */
  ownerMustSupply: StillToSupply[];
};

/** Area scores, overall and grade of one set of verdicts. */
export type ScoreSnapshot = { scores: { seo: number; aeo: number; geo: number; overall: number }; grade: Grade };

/**
 * What the files do to the page: its checks run on the snapshot as scanned and on a copy with
 * every returned file in place (the JSON-LD in place of the page's own blocks, llms.txt and
 * robots.txt served at the origin), at the scan's time.
 */
export type FixProof = {
  scannedAt: string;
  before: ScoreSnapshot;
  after: ScoreSnapshot;
  /** every check a returned file is meant to fix, and every other check whose verdict changed, with its verdict after */
  checks: Array<{ id: string; before: CheckStatus; after: CheckStatus; description: string }>;
};

export type Fixes = {
  url: string;
  llmsTxt: Proven<TextFileFix> | null;
  jsonLd: Proven<JsonLdFix> | null;
  robotsTxt: Proven<TextFileFix> | null;
  /** asked-for check ids that no returned file makes pass, and why */
  unaddressed: Array<{ id: string; reason: string }>;
  proof: FixProof;
};

const JSON_LD_SCRIPT = /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json[^>]*>[\s\S]*?<\/script\s*>/gi;

/** The page with its JSON-LD blocks replaced by a generated one (in the head, or first in the document). */
export const withJsonLd = (html: string, script: string): string => {
  const without = html.replace(JSON_LD_SCRIPT, "");
  return /<\/head\s*>/i.test(without) ? without.replace(/<\/head\s*>/i, `${script}</head>`) : `${script}${without}`;
};

const served = (snapshot: Snapshot, file: TextFileFix): TextResource => ({
  url: new URL(file.path, snapshot.finalUrl).href,
  status: 200,
  contentType: file.contentType,
  body: file.content,
  truncated: false,
  error: null,
});

type Generated = { llmsTxt: TextFileFix | null; jsonLd: JsonLdFix | null; robotsTxt: TextFileFix | null };

/** A copy of the snapshot with the files in place, as the site would serve it once its owner has published them. */
const applied = (snapshot: Snapshot, files: Generated): Snapshot => ({
  ...snapshot,
  ...(files.jsonLd
    ? {
        rawHtml: withJsonLd(snapshot.rawHtml, files.jsonLd.html),
        renderedHtml: withJsonLd(snapshot.renderedHtml, files.jsonLd.html),
      }
    : {}),
  ...(files.llmsTxt ? { llmsTxt: served(snapshot, files.llmsTxt) } : {}),
  ...(files.robotsTxt ? { robotsTxt: served(snapshot, files.robotsTxt) } : {}),
});

const scoreOf = (results: readonly CheckResult[]): ScoreSnapshot => {
  const { scores, grade } = scoreChecks(results);
  return { scores: { seo: scores.seo, aeo: scores.aeo, geo: scores.geo, overall: scores.overall }, grade };
};

const KINDS = ["llmsTxt", "jsonLd", "robotsTxt"] as const;

/**
 * Files ready to paste that fix the page's llms.txt, JSON-LD and robots.txt checks, generated
 * from the snapshot alone (llms-txt.ts, json-ld.ts, robots-txt.ts say how), and proven before
 * they are returned: the checks run on the snapshot and on a copy with the files in place, at
 * the scan's time. A file's `addresses` lists only the checks that then pass; a check it is
 * meant to fix that still does not pass is listed in `ownerMustSupply` with what the page does
 * not state (a logo, a publication date). With `issues`, only the files that make one of those
 * checks pass or better; without, all three. With `checks` (the scan's stored results), each
 * file carries the scan's verdicts on the checks it addresses. Pure: the same snapshot and
 * options give the same files and proof.
 */
export const fixes = (
  snapshot: Snapshot,
  options: { issues?: readonly string[]; checks?: readonly CheckResult[]; scannedAt: Date },
): Fixes => {
  const { scannedAt } = options;
  const facts = pageFacts(preparePage(snapshot, scannedAt));
  const asked = options.issues ? new Set(options.issues) : null;
  const wanted = (kind: keyof typeof FIX_CHECKS) => !asked || FIX_CHECKS[kind].some((id) => asked.has(id));
  const generated: Generated = {
    llmsTxt: wanted("llmsTxt") ? generateLlmsTxt(facts) : null,
    jsonLd: wanted("jsonLd") ? generateJsonLd(facts) : null,
    robotsTxt: wanted("robotsTxt") ? generateRobotsTxt(facts, snapshot) : null,
  };
  const before = runChecks(snapshot, { mode: "full", scannedAt });
  const beforeOf = new Map(before.map((result) => [result.id, result]));
  const run = (files: Generated) => {
    const after = runChecks(applied(snapshot, files), { mode: "full", scannedAt });
    return { after, afterOf: new Map(after.map((result) => [result.id, result])) };
  };
  let { after, afterOf } = run(generated);

  const statusOf = (results: Map<string, CheckResult>, id: string): CheckStatus => results.get(id)?.status ?? "skip";
  const prove = <T extends { addresses: string[]; needs?: Record<string, string> }>(file: T | null) => {
    if (!file) return null;
    const { needs = {}, ...rest } = file;
    // what the file claims, and what it left out for want of data the page does not state
    const meant = [...new Set([...file.addresses, ...Object.keys(needs)])];
    const passing = meant.filter((id) => statusOf(afterOf, id) === "pass");
    const ownerMustSupply = meant
      .filter((id) => statusOf(afterOf, id) !== "pass")
      .map((id) => ({
        id,
        before: statusOf(beforeOf, id),
        after: statusOf(afterOf, id),
        what: needs[id] ?? `what the check still finds missing: ${afterOf.get(id)?.description ?? "unknown"}`,
      }));
    const verdicts = Object.fromEntries(
      (options.checks ?? []).filter((check) => passing.includes(check.id)).map((check) => [check.id, check.status]),
    );
    return { ...rest, addresses: passing, verdicts, ownerMustSupply };
  };
  const proven = () => ({
    llmsTxt: prove(generated.llmsTxt),
    jsonLd: prove(generated.jsonLd),
    robotsTxt: prove(generated.robotsTxt),
  });
  let files = proven();

  // with `issues`, a file stays only if it makes an asked check pass, or leaves the owner one to finish
  if (asked) {
    let dropped = false;
    for (const kind of KINDS) {
      const file = files[kind];
      const serves =
        file && [...file.addresses, ...file.ownerMustSupply.map((entry) => entry.id)].some((id) => asked.has(id));
      if (generated[kind] && !serves) {
        generated[kind] = null;
        dropped = true;
      }
    }
    if (dropped) {
      ({ after, afterOf } = run(generated));
      files = proven();
    }
  }

  const meant = new Set(
    KINDS.flatMap((kind) => [
      ...(files[kind]?.addresses ?? []),
      ...(files[kind]?.ownerMustSupply ?? []).map((entry) => entry.id),
    ]),
  );
  const proof: FixProof = {
    scannedAt: scannedAt.toISOString(),
    before: scoreOf(before),
    after: scoreOf(after),
    checks: after
      .filter((result) => meant.has(result.id) || statusOf(beforeOf, result.id) !== result.status)
      .map((result) => ({
        id: result.id,
        before: statusOf(beforeOf, result.id),
        after: result.status,
        description: result.description,
      })),
  };

  const addressed = new Set(KINDS.flatMap((kind) => files[kind]?.addresses ?? []));
  const supply = new Map(
    KINDS.flatMap((kind) => (files[kind]?.ownerMustSupply ?? []).map((entry) => [entry.id, entry])),
  );
  const mapped = new Set<string>(Object.values(FIX_CHECKS).flat());
  const unaddressed = [...(asked ?? [])]
    .filter((id) => !addressed.has(id))
    .map((id) => {
      const still = supply.get(id);
      const result = beforeOf.get(id);
      if (still)
        return {
          id,
          reason: `The files improve it (${still.before} → ${still.after}), but the owner must still supply ${still.what}.`,
        };
      if (result?.status === "pass") return { id, reason: `It already passes: ${result.description}` };
      if (result?.status === "skip") return { id, reason: `It does not apply to this page: ${result.description}` };
      if (mapped.has(id)) {
        return {
          id,
          reason: `The page does not carry what a generated file would need to fix it: ${result?.description ?? "no verdict"}`,
        };
      }
      return {
        id,
        reason: `No generated file fixes this check; what to change: ${result?.fix || result?.description || "see the scan"}`,
      };
    });
  return { url: facts.url, ...files, unaddressed, proof };
};
