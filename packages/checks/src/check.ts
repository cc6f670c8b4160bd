import type { CheckCategory, CheckResult, CheckSeverity, CheckStatus } from "@scan/contract";
import { pointsFor } from "@scan/contract";
import type { Page } from "./page";

/** What a check says about a page; the framework adds id, scores and the catalogue fields. */
export type Verdict = {
  status: CheckStatus;
  /** what was found on this page, concretely ("Title is 72 characters; 30 to 60 reads best") */
  description: string;
  /** what to change; empty when nothing needs changing */
  fix?: string;
  /**
   * What the verdict rests on, as found on the page (headings, elements, values, lines; empty
   * when the check found nothing). Not part of the result: it lets the corpus tests hold every
   * description and fix to naming its evidence, so that two pages with different evidence never
   * get the same sentence.
   */
  evidence?: readonly string[];
};

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
});
