import type { CheckResult, SiteCheckResult, SiteReport } from "@scan/contract";
import type { AuditExport } from "./audit-export";
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
  renderFailure: null,
  ...overrides,
});

/** A site check result for tests: a failing critical SEO check with two findings unless told otherwise. */
export const siteCheckResult = (overrides: Partial<SiteCheckResult> = {}): SiteCheckResult => ({
  id: "broken-internal-links",
  category: "seo",
  status: "fail",
  score: 0,
  maxScore: 8,
  severity: "critical",
  title: "Internal links lead to pages that answer",
  description: "2 broken internal link targets: https://example.com/gone, https://example.com/down.",
  fix: "Point each link at a page that answers 200.",
  findings: [
    {
      url: "https://example.com/gone",
      detail: "linked from 2 page(s) and answers 404",
      pages: ["https://example.com/", "https://example.com/about"],
    },
    {
      url: "https://example.com/down",
      detail: "linked from 1 page(s) and answers 503",
      pages: ["https://example.com/"],
    },
  ],
  findings_total: 2,
  ...overrides,
});

/** The site report of a small audit: a failing, a passing and a skipped site check, two page checks. */
export const siteReport = (overrides: Partial<SiteReport> = {}): SiteReport => ({
  partial: false,
  scores: { seo: 71, aeo: 64, geo: 58, overall: 65, total: 65 },
  grade: "C",
  issues: { critical: 2, warning: 1, info: 0 },
  pages_judged: 2,
  site_checks: [
    siteCheckResult(),
    siteCheckResult({
      id: "duplicate-titles",
      status: "pass",
      score: 5,
      maxScore: 5,
      severity: "warning",
      title: "Every page has its own title",
      description: "No two indexable pages share a title.",
      fix: "",
      findings: [],
      findings_total: 0,
    }),
    siteCheckResult({
      id: "llms-txt-links",
      category: "geo",
      status: "skip",
      score: 0,
      maxScore: 2,
      severity: "info",
      title: "Links in llms.txt answer",
      description: "The site has no llms.txt.",
      fix: "",
      findings: [],
      findings_total: 0,
    }),
  ],
  page_checks: [
    {
      id: "title",
      category: "seo",
      severity: "critical",
      title: "Page has a title",
      pages: 2,
      pass: 2,
      warn: 0,
      fail: 0,
      skip: 0,
      pass_rate: 1,
    },
    {
      id: "https",
      category: "seo",
      severity: "critical",
      title: "Page is served over HTTPS",
      pages: 2,
      pass: 1,
      warn: 0,
      fail: 1,
      skip: 0,
      pass_rate: 0.5,
    },
  ],
  worst_pages: [],
  discovery: null,
  ...overrides,
});

/** A completed audit of two judged pages (the second with a failing check) and one that failed. */
export const auditExport = (overrides: Partial<AuditExport> = {}): AuditExport => ({
  id: "0f8e5c1a-3b7d-4e29-a1c4-6d2b9e7f4a10",
  url: "https://example.com/",
  mode: "full",
  completedAt: "2025-03-01T11:00:00.000Z",
  report: siteReport(),
  pages: [
    pageReport({ id: null, url: "https://example.com/", finalUrl: "https://example.com/", checks: [checkResult({})] }),
    pageReport({
      id: null,
      url: "https://example.com/about",
      finalUrl: "https://example.com/about",
      checks: [
        checkResult({}),
        checkResult({
          id: "https",
          status: "fail",
          score: 0,
          title: "Page is served over HTTPS",
          description: "Plain HTTP.",
          fix: "Use HTTPS.",
        }),
      ],
    }),
    pageReport({
      id: null,
      url: "https://example.com/down",
      finalUrl: null,
      status: "failed",
      grade: null,
      scores: null,
      checks: [],
      durationMs: null,
      error: { code: "http_503", message: "The page answered 503" },
    }),
  ],
  ...overrides,
});
