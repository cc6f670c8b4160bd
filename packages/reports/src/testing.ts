import type { CheckResult } from "@scan/contract";
import type { PageReport } from "./page-report";

/** A check result for tests: a passing critical SEO check unless told otherwise. */
export const checkResult = (overrides: Partial<CheckResult>): CheckResult => ({
  id: "title",
  category: "seo",
  status: "pass",
  score: 6,
  maxScore: 6,
  severity: "critical",
  title: "Page has a title",
  description: "The page has a title.",
  fix: "",
  ...overrides,
});

/** A completed full scan with a pass, a warning, two failures and a skipped check. */
export const pageReport = (overrides: Partial<PageReport> = {}): PageReport => ({
  id: "4b1c6a52-2f7e-4c55-9d4f-0f5c2b7f2d11",
  url: "https://example.com/",
  finalUrl: "https://www.example.com/",
  mode: "full",
  status: "completed",
  grade: "B",
  scores: { seo: 80, aeo: 61, geo: 70, overall: 70 },
  checks: [
    checkResult({}),
    checkResult({
      id: "llms-txt",
      category: "geo",
      status: "warn",
      severity: "warning",
      score: 2.5,
      maxScore: 5,
      title: "llms.txt is published",
      description: "No llms.txt.",
      fix: "Publish /llms.txt.",
    }),
    checkResult({
      id: "meta-description",
      status: "fail",
      severity: "warning",
      score: 0,
      title: "Page has a meta description",
      description: "No description.",
      fix: "Add one.",
    }),
    checkResult({
      id: "https",
      status: "fail",
      severity: "critical",
      score: 0,
      title: "Page is served over HTTPS",
      description: "Plain HTTP.",
      fix: "Use HTTPS.",
    }),
    checkResult({
      id: "faq-schema",
      category: "aeo",
      status: "skip",
      title: "FAQ markup is valid",
      description: "No FAQ.",
    }),
  ],
  scannedAt: "2025-03-01T10:20:30.456Z",
  durationMs: 4200,
  error: null,
  ...overrides,
});
