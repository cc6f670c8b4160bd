import type { CheckResult } from "@scan/client";

type Grade = NonNullable<CheckResult["evidence"]>["grade"];

/** A check's evidence grade in words, as the report and the printed report say it. */
export const EVIDENCE_LABEL: Readonly<Record<Grade, string>> = {
  documented: "Documented",
  peer_reviewed: "Peer-reviewed",
  industry_study: "Industry study",
  convention: "Convention only",
};

/** What the grade does to the score, in one sentence. */
export const evidenceWeightText = (grade: Grade): string =>
  grade === "convention"
    ? "Its verdict is shown but it does not count in the score."
    : grade === "documented"
      ? "It counts fully in the score."
      : `It counts ${grade === "peer_reviewed" ? "0.8" : "0.5"} of its points in the score.`;
