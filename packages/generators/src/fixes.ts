import { allChecks, preparePage, runChecks, scoreChecks } from "@scan/checks";
import type { CheckResult, CheckStatus, Grade, Snapshot } from "@scan/contract";
import { z } from "zod";
import {
  AI_CATALOG_CHECKS,
  type AiCatalogFix,
  generateAiCatalog,
  recheckAiCatalog,
  type SiteRecheck,
} from "./ai-catalog";
import { generateJsonLd, type JsonLdFix } from "./json-ld";
import { generateLlmsTxt, type TextFileFix } from "./llms-txt";
import { pageFacts } from "./page-facts";
import { applied, type Generated } from "./patched-copy";
import { generateRobotsTxt } from "./robots-txt";
import { generateWebMcpForms, type WebMcpFormsFix } from "./webmcp-forms";

export { withJsonLd } from "./patched-copy";

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
  aiCatalog: AI_CATALOG_CHECKS,
  webmcpForms: ["webmcp-form-coverage"],
} as const;

// the page checks, and the site checks a generated file fixes
const CHECK_IDS = [...allChecks.map((check) => check.id), ...AI_CATALOG_CHECKS] as string[] as [string, ...string[]];

/** The options of `fixes` as a caller sends them: check ids of the catalogue (page checks, and the site checks ai-catalog and ai-catalog-schema), each at most once. */
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
 * every returned file in place (the JSON-LD in place of the page's own blocks, the ai-catalog
 * link added, the bare forms annotated, llms.txt and robots.txt served at the origin), at the
 * scan's time.
 */
export type FixProof = {
  scannedAt: string;
  before: ScoreSnapshot;
  after: ScoreSnapshot;
  /** every check a returned file is meant to fix, and every other check whose verdict changed, with its verdict after */
  checks: Array<{ id: string; before: CheckStatus; after: CheckStatus; description: string }>;
  /**
   * the site checks ai-catalog and ai-catalog-schema, run as a site audit runs them on the
   * patched copy with the ai-catalog.json served (recheckAiCatalog); empty without that file.
   * They weigh in a site audit, not in the page's scores.
   */
  siteChecks: SiteRecheck[];
};

export type Fixes = {
  url: string;
  llmsTxt: Proven<TextFileFix> | null;
  jsonLd: Proven<JsonLdFix> | null;
  robotsTxt: Proven<TextFileFix> | null;
  aiCatalog: Proven<AiCatalogFix> | null;
  webmcpForms: Proven<WebMcpFormsFix> | null;
  /** asked-for check ids that no returned file makes pass, and why */
  unaddressed: Array<{ id: string; reason: string }>;
  proof: FixProof;
};

const scoreOf = (results: readonly CheckResult[]): ScoreSnapshot => {
  const { scores, grade } = scoreChecks(results);
  return { scores: { seo: scores.seo, aeo: scores.aeo, geo: scores.geo, overall: scores.overall }, grade };
};

const KINDS = ["llmsTxt", "jsonLd", "robotsTxt", "aiCatalog", "webmcpForms"] as const;

/** A verdict on the page as scanned or on the patched copy, page check or site check. */
type Verdict = { status: CheckStatus; description: string; fix?: string };

/**
 * Files ready to paste that fix the page's llms.txt, JSON-LD, robots.txt, ai-catalog.json and
 * WebMCP form checks, generated from the snapshot alone (llms-txt.ts, json-ld.ts,
 * robots-txt.ts, ai-catalog.ts, webmcp-forms.ts say how), and proven before they are returned:
 * the checks run on the snapshot and on a copy with the files in place (patched-copy.ts), at
 * the scan's time, and the ai-catalog site checks as a site audit runs them on that copy. A file's `addresses` lists only the checks that then pass; a check it is
 * meant to fix that still does not pass is listed in `ownerMustSupply` with what the page does
 * not state (a logo, a publication date). With `issues`, only the files that make one of those
 * checks pass or better; without, every file the page gives facts for. With `checks` (the scan's stored results), each
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
    aiCatalog: wanted("aiCatalog") ? generateAiCatalog(facts, snapshot) : null,
    webmcpForms: wanted("webmcpForms") ? generateWebMcpForms(snapshot) : null,
  };
  const before = runChecks(snapshot, { mode: "full", scannedAt });
  const beforeOf = new Map<string, Verdict>(before.map((result) => [result.id, result]));
  for (const id of AI_CATALOG_CHECKS)
    beforeOf.set(id, {
      status: "skip",
      description: "Not judged on the page as scanned: a page scan does not fetch ai-catalog.json (a site audit does).",
    });
  const run = (files: Generated) => {
    const copy = applied(snapshot, files);
    const after = runChecks(copy, { mode: "full", scannedAt });
    const siteChecks = recheckAiCatalog(copy, files.aiCatalog);
    const afterOf = new Map<string, Verdict>([
      ...after.map((result): [string, Verdict] => [result.id, result]),
      ...siteChecks.map((result): [string, Verdict] => [
        result.id,
        { status: result.after, description: result.description },
      ]),
    ]);
    return { after, siteChecks, afterOf };
  };
  let { after, siteChecks, afterOf } = run(generated);

  const statusOf = (results: Map<string, Verdict>, id: string): CheckStatus => results.get(id)?.status ?? "skip";
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
    aiCatalog: prove(generated.aiCatalog),
    webmcpForms: prove(generated.webmcpForms),
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
      ({ after, siteChecks, afterOf } = run(generated));
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
    siteChecks,
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
      if (still?.after === "skip")
        return { id, reason: `The files could not be judged on the patched copy: ${still.what}` };
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
