import { z } from "zod";

export const CheckCategory = z.enum(["seo", "aeo", "geo"]);
export type CheckCategory = z.infer<typeof CheckCategory>;

export const CheckStatus = z.enum(["pass", "warn", "fail", "skip"]);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const CheckSeverity = z.enum(["critical", "warning", "info"]);
export type CheckSeverity = z.infer<typeof CheckSeverity>;

/**
 * How well what a check asks for is known to matter (docs/checks.md, "Evidence grades"):
 * documented by the engine or search vendor, shown by peer-reviewed research, seen in a
 * correlational industry study, or convention only.
 */
export const EvidenceGrade = z.enum(["documented", "peer_reviewed", "industry_study", "convention"]);
export type EvidenceGrade = z.infer<typeof EvidenceGrade>;

/** Where a check's grade comes from: the source and the day it was last confirmed to say so. */
export const CheckEvidence = z.object({
  grade: EvidenceGrade,
  /** null only for a convention no vendor or study speaks to */
  source: z.object({ title: z.string().min(1), url: z.url() }).nullable(),
  /** the day the source was confirmed to exist and say what the grade claims (YYYY-MM-DD); null with source */
  checked: z.iso.date().nullable(),
});
export type CheckEvidence = z.infer<typeof CheckEvidence>;

/**
 * What a check's points weigh in its area's score, by grade, in tenths (integers, so that the
 * area's sums stay exact): documented 1.0, peer-reviewed 0.8, industry study 0.5, convention 0.
 * A convention-only check is reported with its verdict but never moves a score.
 */
export const EVIDENCE_WEIGHTS: Readonly<Record<EvidenceGrade, number>> = {
  documented: 10,
  peer_reviewed: 8,
  industry_study: 5,
  convention: 0,
};

/** One check's verdict on one page, as stored and as returned by the API. */
export const CheckResult = z.object({
  id: z.string().min(1),
  category: CheckCategory,
  status: CheckStatus,
  score: z.number().min(0),
  maxScore: z.number().positive(),
  severity: CheckSeverity,
  title: z.string(),
  description: z.string(),
  fix: z.string(),
  /** the check's evidence grade; absent only on results stored before checks carried one */
  evidence: CheckEvidence.optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;
