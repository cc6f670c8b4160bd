import { CHECK_EVIDENCE, pointsFor, scoreChecks } from "@scan/checks";
import type {
  AuditDiscovery,
  AuditPageStatus,
  CheckResult,
  CheckStatus,
  PageCheckSummary,
  SiteCheckResult,
  SiteReport,
  WorstPage,
} from "@scan/contract";

/**
 * Whether a page's checks count in the site's scores (it is "judged"): it was scanned and
 * answered 2xx at its own URL, without a redirect. The report step and the API's page list
 * (`judged`) both ask this.
 */
export const isJudgedPage = (page: {
  status: AuditPageStatus;
  httpStatus: number | null;
  redirected: boolean;
}): boolean =>
  page.status === "scanned" &&
  page.httpStatus !== null &&
  page.httpStatus >= 200 &&
  page.httpStatus < 300 &&
  !page.redirected;

/** A page whose checks count in the site's scores: it answered 2xx at its own URL. */
export type JudgedPage = { url: string; overall: number; checks: readonly CheckResult[] };

export const WORST_PAGES = 10;

/**
 * One page check across the judged pages, as one result the scorer can weigh: its points are
 * the pages' points averaged (pass earns maxScore, warn half, fail 0, as on a page), so a check
 * that fails on a quarter of the pages costs a quarter of its weight. Skipped everywhere, it
 * is skipped. Its status says where it stands: pass on every page, fail on every page, else warn.
 */
const aggregate = (results: readonly CheckResult[]): { result: CheckResult; summary: PageCheckSummary } | null => {
  const first = results[0];
  if (!first) return null;
  const counts: Record<CheckStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  let points = 0;
  for (const result of results) {
    counts[result.status] += 1;
    if (result.status !== "skip") points += pointsFor(result.status, result.maxScore);
  }
  const ran = counts.pass + counts.warn + counts.fail;
  // results stored before they carried a grade take the catalogue's
  const evidence = first.evidence ?? CHECK_EVIDENCE[first.id];
  const status: CheckStatus = ran === 0 ? "skip" : counts.pass === ran ? "pass" : counts.fail === ran ? "fail" : "warn";
  const summary: PageCheckSummary = {
    id: first.id,
    category: first.category,
    severity: first.severity,
    title: first.title,
    pages: ran,
    pass: counts.pass,
    warn: counts.warn,
    fail: counts.fail,
    skip: counts.skip,
    pass_rate: ran === 0 ? null : Math.round((counts.pass / ran) * 10_000) / 10_000,
    ...(evidence ? { evidence } : {}),
  };
  const result: CheckResult = {
    id: first.id,
    category: first.category,
    severity: first.severity,
    title: first.title,
    maxScore: first.maxScore,
    status,
    score: ran === 0 ? 0 : points / ran,
    description: `passes on ${counts.pass} of ${ran} pages`,
    fix: first.fix,
    ...(evidence ? { evidence } : {}),
  };
  return { result, summary };
};

const failingIds = (checks: readonly CheckResult[]) =>
  checks.filter((check) => check.status === "fail").map((check) => check.id);

/**
 * The site report: each page check's pass rate over the judged pages, the site checks, and the
 * site's scores by the catalogue's rules (docs/spec/checks.md, Scoring) over both: every page
 * check weighs as on one page with its points averaged over the pages, every site check with
 * its own points; areas, overall, the indexable cap (when no page may be indexed) and the grade
 * as for a page.
 */
export const buildSiteReport = ({
  mode,
  pages,
  siteChecks,
  discovery,
}: {
  mode: "quick" | "full";
  pages: readonly JudgedPage[];
  siteChecks: readonly SiteCheckResult[];
  discovery: AuditDiscovery | null;
}): SiteReport => {
  const byId = new Map<string, CheckResult[]>();
  for (const page of pages) {
    for (const check of page.checks) byId.set(check.id, [...(byId.get(check.id) ?? []), check]);
  }
  const aggregated = [...byId.values()].map(aggregate).filter((entry) => entry !== null);
  const siteResults: CheckResult[] = siteChecks.map(({ findings: _f, findings_total: _t, ...result }) => result);
  const card = scoreChecks([...aggregated.map((entry) => entry.result), ...siteResults]);
  const worst: WorstPage[] = [...pages]
    .sort((a, b) => a.overall - b.overall || a.url.localeCompare(b.url))
    .slice(0, WORST_PAGES)
    .map((page) => {
      const single = scoreChecks(page.checks);
      return {
        url: page.url,
        overall: page.overall,
        grade: single.grade,
        issues: single.issues,
        failing: failingIds(page.checks),
      };
    });
  return {
    partial: mode === "quick",
    scores: card.scores,
    grade: card.grade,
    issues: card.issues,
    pages_judged: pages.length,
    site_checks: [...siteChecks],
    page_checks: aggregated.map((entry) => entry.summary),
    worst_pages: worst,
    discovery,
  };
};
