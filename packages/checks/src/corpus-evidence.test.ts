import { readdirSync } from "node:fs";
import { corpusPagesDir, corpusSnapshot, FIXED_SCAN_TIME } from "./fixture";
import { preparePage } from "./page";
import { allChecks } from "./registry";

/**
 * Evidence in every finding, over every page of the real-page corpus (browser-free: the saved
 * HTML is the rendered DOM). Each warn or fail names what it rests on (`evidence`), and no two
 * findings of one check on different pages with different evidence share a description or a
 * fix: a sentence that fits two different problems names neither. Findings with the same
 * evidence (no sitemap at the one origin all corpus pages share, no lang attribute) may share
 * their sentence.
 */
const pages = readdirSync(corpusPagesDir()).sort();

type Finding = { page: string; evidence: string; description: string; fix: string };
const findings = new Map<string, Finding[]>();

beforeAll(() => {
  for (const name of pages) {
    const page = preparePage(corpusSnapshot(name), FIXED_SCAN_TIME);
    for (const check of allChecks) {
      const verdict = check.run(page);
      if (verdict.status !== "warn" && verdict.status !== "fail") continue;
      const list = findings.get(check.id) ?? [];
      list.push({
        page: name,
        evidence: verdict.evidence === undefined ? "(none given)" : JSON.stringify(verdict.evidence),
        description: verdict.description,
        fix: verdict.fix ?? "",
      });
      findings.set(check.id, list);
    }
  }
}, 120_000);

/** The sentences shared by findings with different evidence: "check: sentence ← page (evidence), page (evidence)". */
const shared = (field: "description" | "fix"): string[] => {
  const problems: string[] = [];
  for (const [id, list] of findings) {
    const bySentence = new Map<string, Finding[]>();
    for (const finding of list) bySentence.set(finding[field], [...(bySentence.get(finding[field]) ?? []), finding]);
    for (const [sentence, same] of bySentence) {
      const evidence = new Set(same.map((finding) => finding.evidence));
      if (evidence.size > 1) {
        const where = same
          .slice(0, 3)
          .map((finding) => `${finding.page} ${finding.evidence.slice(0, 80)}`)
          .join(" | ");
        problems.push(`${id}: "${sentence.slice(0, 120)}" ← ${where}`);
      }
    }
  }
  return problems;
};

describe("findings on the corpus name their evidence", () => {
  it("every warn and fail carries its evidence", () => {
    const missing = [...findings].flatMap(([id, list]) =>
      list.filter((finding) => finding.evidence === "(none given)").map((finding) => `${id} on ${finding.page}`),
    );
    expect(missing).toEqual([]);
  });

  it("no two findings of one check with different evidence share a description", () => {
    expect(shared("description")).toEqual([]);
  });

  it("no two findings of one check with different evidence share a fix", () => {
    expect(shared("fix")).toEqual([]);
  });
});
