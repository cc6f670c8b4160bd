import { z } from "zod";

export const CheckCategory = z.enum(["seo", "aeo", "geo"]);
export type CheckCategory = z.infer<typeof CheckCategory>;

export const CheckStatus = z.enum(["pass", "warn", "fail", "skip"]);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const CheckSeverity = z.enum(["critical", "warning", "info"]);
export type CheckSeverity = z.infer<typeof CheckSeverity>;

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
});
export type CheckResult = z.infer<typeof CheckResult>;
