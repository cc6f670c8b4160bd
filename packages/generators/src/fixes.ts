import { allChecks, preparePage } from "@scan/checks";
import type { CheckResult, CheckStatus, Snapshot } from "@scan/contract";
import { z } from "zod";
import { generateJsonLd, type JsonLdFix } from "./json-ld";
import { generateLlmsTxt, type TextFileFix } from "./llms-txt";
import { pageFacts } from "./page-facts";
import { generateRobotsTxt } from "./robots-txt";

/**
 * Which generated file can fix which check. A file is produced when one of its checks is asked
 * for (or when nothing is asked); the file then says in `addresses` which of them it really
 * fixes on this page: JSON-LD addresses faq-schema only when the page has questions to mark up.
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

/** The scan's verdicts on the checks a file addresses, when the scan's results were given. */
type WithVerdicts<T> = T & { verdicts: Record<string, CheckStatus> };

export type Fixes = {
  url: string;
  llmsTxt: WithVerdicts<TextFileFix> | null;
  jsonLd: WithVerdicts<JsonLdFix> | null;
  robotsTxt: WithVerdicts<TextFileFix> | null;
  /** asked-for check ids that no generated file fixes on this page, and why */
  unaddressed: Array<{ id: string; reason: string }>;
};

// any fixed instant: no generator reads the scan time (only freshness does, and it is not used here)
const EPOCH = new Date(0);

/**
 * Files ready to paste that fix the page's llms.txt, JSON-LD and robots.txt checks, generated
 * from the snapshot alone (llms-txt.ts, json-ld.ts, robots-txt.ts say how). With `issues`, only
 * the files that address one of those check ids; without, all three. With `checks` (the scan's
 * results for this snapshot), each file carries the scan's verdicts on the checks it addresses.
 * Pure: the same snapshot and options give the same files.
 */
export const fixes = (
  snapshot: Snapshot,
  options: { issues?: readonly string[]; checks?: readonly CheckResult[] } = {},
): Fixes => {
  const facts = pageFacts(preparePage(snapshot, EPOCH));
  const asked = options.issues ? new Set(options.issues) : null;
  const verdictsFor = (addresses: readonly string[]): Record<string, CheckStatus> =>
    Object.fromEntries(
      (options.checks ?? []).filter((check) => addresses.includes(check.id)).map((check) => [check.id, check.status]),
    );
  const wanted = <T extends { addresses: string[] }>(kind: keyof typeof FIX_CHECKS, make: () => T) => {
    if (asked && !FIX_CHECKS[kind].some((id) => asked.has(id))) return null;
    const file = make();
    if (asked && !file.addresses.some((id) => asked.has(id))) return null;
    return { ...file, verdicts: verdictsFor(file.addresses) };
  };
  const llmsTxt = wanted("llmsTxt", () => generateLlmsTxt(facts));
  const jsonLd = wanted("jsonLd", () => generateJsonLd(facts));
  const robotsTxt = wanted("robotsTxt", () => generateRobotsTxt(facts, snapshot));
  const addressed = new Set([llmsTxt, jsonLd, robotsTxt].flatMap((file) => file?.addresses ?? []));
  const mapped = new Set<string>(Object.values(FIX_CHECKS).flat());
  const unaddressed = [...(asked ?? [])]
    .filter((id) => !addressed.has(id))
    .map((id) => ({
      id,
      reason: mapped.has(id)
        ? "The page does not carry the data this fix needs (for example no question headings for faq-schema, no article for article-schema)."
        : "No generated file fixes this check; the scan's fix field for it says what to change.",
    }));
  return { url: facts.url, llmsTxt, jsonLd, robotsTxt, unaddressed };
};
