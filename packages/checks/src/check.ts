import type { CheckCategory, CheckResult, CheckSeverity } from "@scan/contract";
import { evidenceFor } from "./evidence";
import type { Page } from "./page";
import { pointsFor } from "./score/scorer";

/**
 * What a check says about a page; the framework adds id, scores and the catalogue fields. A
 * finding (warn or fail) must say what to change and name what it rests on: the types make a
 * check that forgets either fail to compile.
 */
export type Verdict = Finding | Judgement;

type VerdictFields = {
  /** what was found on this page, concretely ("Title is 72 characters; 30 to 60 reads best") */
  description: string;
  /**
   * What the verdict rests on, as found on the page (headings, elements, values, lines; empty
   * when the check found nothing). Not part of the result: it lets the corpus tests hold every
   * description and fix to naming its evidence, so that two pages with different evidence never
   * get the same sentence.
   */
  evidence?: readonly string[];
};

/** A warn or fail: what to change, and the evidence. */
export type Finding = VerdictFields & { status: "warn" | "fail"; fix: string; evidence: readonly string[] };

/** A pass or skip: nothing to change. */
export type Judgement = VerdictFields & { status: "pass" | "skip"; fix?: string };

export type CheckDefinition = {
  id: string;
  category: CheckCategory;
  severity: CheckSeverity;
  maxScore: number;
  /** part of the quick scan's 20 core checks */
  quick: boolean;
  title: string;
  run: (page: Page) => Verdict;
};

export const defineCheck = (definition: CheckDefinition): CheckDefinition => definition;

export const toResult = (check: CheckDefinition, verdict: Verdict): CheckResult => ({
  id: check.id,
  category: check.category,
  status: verdict.status,
  score: pointsFor(verdict.status, check.maxScore),
  maxScore: check.maxScore,
  severity: check.severity,
  title: check.title,
  description: verdict.description,
  fix: verdict.fix ?? "",
  evidence: evidenceFor(check.id),
});
