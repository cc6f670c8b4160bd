import { pointsFor } from "@scan/checks";
import { type AuditPageView, type CheckStatus, Grade, type ScanMode, type SiteReport } from "@scan/contract";
import type { PageReport } from "@scan/reports";
import { z } from "zod";

/**
 * Assertions on a scan, in the manner of Lighthouse CI: a map from what is asserted to a level
 * (`off`, `warn`, `error`) and, where it takes one, a threshold.
 *
 * - `categories:seo`, `categories:aeo`, `categories:geo`, `categories:overall`:
 *   `["error", {"minScore": 80}]`, the area's (or overall) score out of 100;
 * - `grade`: `["warn", {"minGrade": "B"}]`, the grade at least this good;
 * - a check id (`title`, `llms-txt`, ...): `"error"`, the check passes or does not apply; with
 *   `{"minScore": 0.5}` a warning (half the points) is enough. On an audit, a page check's
 *   assertion holds on every judged page, and a site check id (`broken-internal-links`) asserts
 *   the site check.
 *
 * A failed `error` assertion fails the command (exit 1); a failed `warn` one is reported only.
 */

export const AssertionLevel = z.enum(["off", "warn", "error"]);
export type AssertionLevel = z.infer<typeof AssertionLevel>;

export const AREA_KEYS = ["categories:seo", "categories:aeo", "categories:geo", "categories:overall"] as const;
type AreaKey = (typeof AREA_KEYS)[number];

const MinScore = z.strictObject({ minScore: z.int().min(0).max(100) });
const MinGrade = z.strictObject({ minGrade: Grade });
const CheckOptions = z.strictObject({ minScore: z.number().min(0).max(1) });

/** One assertion as written: a level alone, or `[level]`, or `[level, options]`. */
const entry = <T extends z.ZodType>(options: T, optionsRequired: boolean) =>
  optionsRequired
    ? z.union([z.tuple([z.literal("off")]), AssertionLevel.extract(["off"]), z.tuple([AssertionLevel, options])])
    : z.union([AssertionLevel, z.tuple([AssertionLevel]), z.tuple([AssertionLevel, options])]);

const AreaEntry = entry(MinScore, true);
const GradeEntry = entry(MinGrade, true);
const CheckEntry = entry(CheckOptions, false);

export type Assertion =
  | { key: AreaKey; level: AssertionLevel; minScore: number }
  | { key: "grade"; level: AssertionLevel; minGrade: Grade }
  | { key: string; kind: "check"; level: AssertionLevel; minScore: number };

export type AssertionResult = {
  key: string;
  level: "warn" | "error";
  passed: boolean;
  /** what was found, for the summary: "62", "D", "fail" */
  actual: string;
  /** what was asserted: "at least 80", "B or better", "pass" */
  expected: string;
  message: string;
};

const GRADE_ORDER = Grade.options;

const isAreaKey = (key: string): key is AreaKey => (AREA_KEYS as readonly string[]).includes(key);

const levelAndOptions = (value: unknown): [AssertionLevel, Record<string, unknown>] => {
  if (typeof value === "string") return [value as AssertionLevel, {}];
  const [level, options = {}] = value as [AssertionLevel, Record<string, unknown>?];
  return [level, options];
};

/**
 * Reads the `assertions` map: each key and value checked, unknown check ids refused (a typo would
 * otherwise assert nothing), and so are ids of checks that run elsewhere (`siteChecks`: the site
 * checks, which only an audit runs). Throws an Error naming what is wrong.
 */
export const readAssertions = (
  raw: unknown,
  knownChecks: ReadonlySet<string>,
  where: string,
  siteChecks: ReadonlySet<string> = new Set(),
): Assertion[] => {
  const map = z.record(z.string(), z.unknown()).safeParse(raw);
  if (!map.success) throw new Error(`${where}: assertions must be an object of "key": level or [level, options]`);
  const out: Assertion[] = [];
  for (const [key, value] of Object.entries(map.data)) {
    const problem = (why: string) => new Error(`${where}: assertion "${key}": ${why}`);
    if (isAreaKey(key)) {
      if (!AreaEntry.safeParse(value).success) throw problem('write ["error" | "warn", {"minScore": 0-100}] or "off"');
      const [level, options] = levelAndOptions(value);
      out.push({ key, level, minScore: (options.minScore as number | undefined) ?? 0 });
    } else if (key === "grade") {
      if (!GradeEntry.safeParse(value).success)
        throw problem(
          `write ["error" | "warn", {"minGrade": ${GRADE_ORDER.map((g) => `"${g}"`).join(" | ")}}] or "off"`,
        );
      const [level, options] = levelAndOptions(value);
      out.push({ key, level, minGrade: (options.minGrade as Grade | undefined) ?? "F" });
    } else if (key.startsWith("categories:")) {
      throw problem(`the categories are ${AREA_KEYS.join(", ")}`);
    } else {
      if (siteChecks.has(key)) throw problem("is a site check: only an audit runs it (scan audit <url>)");
      if (!knownChecks.has(key)) throw problem("no check has this id (the ids are in docs/checks.md)");
      if (!CheckEntry.safeParse(value).success)
        throw problem('write "error" | "warn" | "off", or ["error" | "warn", {"minScore": 0-1}]');
      const [level, options] = levelAndOptions(value);
      out.push({ key, kind: "check", level, minScore: (options.minScore as number | undefined) ?? 1 });
    }
  }
  return out;
};

/** Later assertions replace earlier ones with the same key (flags over the config file). */
export const mergeAssertions = (...lists: readonly Assertion[][]): Assertion[] => {
  const byKey = new Map<string, Assertion>();
  for (const list of lists) for (const assertion of list) byKey.set(assertion.key, assertion);
  return [...byKey.values()];
};

const AREA_LABEL: Record<AreaKey, string> = {
  "categories:seo": "SEO score",
  "categories:aeo": "AEO score",
  "categories:geo": "GEO score",
  "categories:overall": "overall score",
};

type Scores = { seo: number; aeo: number; geo: number; overall: number } | null;

const judgeGrade = (assertion: { minGrade: Grade }, level: "warn" | "error", found: string | null): AssertionResult => {
  const grade = found ?? "F";
  const rank = GRADE_ORDER.indexOf(grade as Grade);
  const passed = rank !== -1 && rank <= GRADE_ORDER.indexOf(assertion.minGrade);
  return {
    key: "grade",
    level,
    passed,
    actual: grade,
    expected: `${assertion.minGrade} or better`,
    message: passed
      ? `grade ${grade} is ${assertion.minGrade} or better`
      : `grade ${grade} is below ${assertion.minGrade}`,
  };
};

const judgeArea = (
  assertion: { key: AreaKey; minScore: number },
  level: "warn" | "error",
  scores: Scores,
): AssertionResult => {
  const area = assertion.key.slice("categories:".length) as "seo" | "aeo" | "geo" | "overall";
  const score = scores?.[area] ?? 0;
  const passed = score >= assertion.minScore;
  const label = AREA_LABEL[assertion.key];
  return {
    key: assertion.key,
    level,
    passed,
    actual: String(score),
    expected: `at least ${assertion.minScore}`,
    message: passed
      ? `${label} ${score} is at least ${assertion.minScore}`
      : `${label} ${score} is below ${assertion.minScore}`,
  };
};

type CheckAssertion = Extract<Assertion, { kind: "check" }>;

/**
 * Judges each assertion that is not `off`: scores and grade against `scores` and `grade`, a
 * check by `judgeCheck`.
 */
const judge = (
  assertions: readonly Assertion[],
  scores: Scores,
  grade: string | null,
  judgeCheck: (assertion: CheckAssertion, level: "warn" | "error") => AssertionResult,
): AssertionResult[] =>
  assertions.flatMap((assertion): AssertionResult[] => {
    if (assertion.level === "off") return [];
    const level = assertion.level;
    if ("minGrade" in assertion) return [judgeGrade(assertion, level, grade)];
    if (!("kind" in assertion)) return [judgeArea(assertion, level, scores)];
    return [judgeCheck(assertion, level)];
  });

const expectedOf = (minScore: number) => (minScore >= 1 ? "pass" : `at least ${minScore * 100}% of its points`);

/** The share of its points a check's status earns on a page; one that does not apply (skip) has nothing wrong. */
const shareOf = (status: CheckStatus): number => (status === "skip" ? 1 : pointsFor(status, 1));

/** Each assertion that is not `off`, judged on a completed scan. */
export const evaluateAssertions = (assertions: readonly Assertion[], page: PageReport): AssertionResult[] =>
  judge(assertions, page.scores, page.grade, (assertion, level) => {
    const check = page.checks.find((candidate) => candidate.id === assertion.key);
    const expected = expectedOf(assertion.minScore);
    if (!check) {
      return {
        key: assertion.key,
        level,
        passed: false,
        actual: "not run",
        expected,
        message: `check ${assertion.key} was not run${page.mode === "quick" ? " (a quick scan runs the 20 core checks; use --mode full)" : ""}`,
      };
    }
    const share = check.status === "skip" ? 1 : check.score / check.maxScore;
    const passed = share >= assertion.minScore;
    return {
      key: assertion.key,
      level,
      passed,
      actual: check.status,
      expected,
      message: passed
        ? `check ${check.id}: ${check.status}`
        : `check ${check.id}: ${check.status}, expected ${expected}: ${check.description}`,
    };
  });

/** pages named in a failed page check's message */
const PAGES_NAMED = 5;

/**
 * Where each page check fell short on an audit's judged pages, gathered a page at a time as the
 * pages are read, so that no page is held: per check, how many pages it failed and warned on,
 * and the first pages (in the order found) it failed on and it failed or warned on, enough to
 * name them.
 */
export const pageShortfalls = () => {
  type Shortfall = { fail: number; warn: number; failing: string[]; falling: string[] };
  const byCheck = new Map<string, Shortfall>();
  return {
    add: (page: AuditPageView) => {
      if (!page.judged) return;
      const seen = new Set<string>();
      for (const check of page.checks ?? []) {
        // a page's first result of a check is its verdict
        if (seen.has(check.id)) continue;
        seen.add(check.id);
        if (check.status !== "fail" && check.status !== "warn") continue;
        let shortfall = byCheck.get(check.id);
        if (!shortfall) {
          shortfall = { fail: 0, warn: 0, failing: [], falling: [] };
          byCheck.set(check.id, shortfall);
        }
        shortfall[check.status] += 1;
        if (shortfall.falling.length < PAGES_NAMED) shortfall.falling.push(page.url);
        if (check.status === "fail" && shortfall.failing.length < PAGES_NAMED) shortfall.failing.push(page.url);
      }
    },
    /** The pages where the check earns less than `minScore` of its points: how many, and the first of them. */
    below: (id: string, minScore: number): { count: number; first: string[] } => {
      const shortfall = byCheck.get(id);
      if (!shortfall) return { count: 0, first: [] };
      if (shareOf("warn") < minScore) return { count: shortfall.fail + shortfall.warn, first: shortfall.falling };
      if (shareOf("fail") < minScore) return { count: shortfall.fail, first: shortfall.failing };
      return { count: 0, first: [] };
    },
  };
};
export type PageShortfalls = ReturnType<typeof pageShortfalls>;

/** Where page checks fell short on these pages. */
export const shortfallsOf = (pages: Iterable<AuditPageView>): PageShortfalls => {
  const shortfalls = pageShortfalls();
  for (const page of pages) shortfalls.add(page);
  return shortfalls;
};

/**
 * A completed audit as its assertions read it: the site report, and where page checks fell short
 * on its pages when they were read.
 */
export type AuditToJudge = { mode: ScanMode; report: SiteReport; shortfalls: PageShortfalls | null };

/**
 * Each assertion that is not `off`, judged on a completed audit: scores and grade are the
 * site's; a site check id asserts the site check as a check id asserts a page's; a page check
 * id asserts the check on every judged page, with the same threshold a scan's assertion has
 * on its page (`"error"`: it passes or does not apply on every page; `{"minScore": 0.5}`: a
 * warning is enough on every page). The pages where it fell short are named when `shortfalls`
 * are given; the report alone counts them.
 */
export const evaluateAuditAssertions = (assertions: readonly Assertion[], audit: AuditToJudge): AssertionResult[] =>
  judge(assertions, audit.report.scores, audit.report.grade, (assertion, level) => {
    const expected = expectedOf(assertion.minScore);
    const site = audit.report.site_checks.find((check) => check.id === assertion.key);
    if (site) {
      const share = site.status === "skip" ? 1 : site.score / site.maxScore;
      const passed = share >= assertion.minScore;
      return {
        key: assertion.key,
        level,
        passed,
        actual: site.status,
        expected,
        message: passed
          ? `site check ${site.id}: ${site.status}`
          : `site check ${site.id}: ${site.status}, expected ${expected}: ${site.description}`,
      };
    }
    const summary = audit.report.page_checks.find((check) => check.id === assertion.key);
    const everywhere = `${expected} on every page`;
    if (!summary) {
      const why =
        audit.report.pages_judged === 0
          ? " (the audit judged no page)"
          : audit.mode === "quick"
            ? " (a quick audit runs the 20 core checks on each page; use --mode full)"
            : "";
      return {
        key: assertion.key,
        level,
        passed: false,
        actual: "not run",
        expected: everywhere,
        message: `check ${assertion.key} was not run${why}`,
      };
    }
    const counts = { fail: summary.fail, warn: summary.warn };
    const short = (["fail", "warn"] as const).filter((status) => shareOf(status) < assertion.minScore);
    const falling = short.reduce((sum, status) => sum + counts[status], 0);
    const actual =
      summary.pages === 0
        ? "skip on every page"
        : `pass on ${summary.pass}, warn on ${summary.warn}, fail on ${summary.fail} of ${summary.pages} pages`;
    if (falling === 0)
      return {
        key: assertion.key,
        level,
        passed: true,
        actual,
        expected: everywhere,
        message: `check ${summary.id}: ${summary.pages === 0 ? "does not apply to any page" : `passes on ${summary.pass} of ${summary.pages} pages`}`,
      };
    const how = short
      .filter((status) => counts[status] > 0)
      .map((status) => `${status === "fail" ? "fails" : "warns"} on ${counts[status]}`)
      .join(" and ");
    const below = audit.shortfalls?.below(summary.id, assertion.minScore) ?? { count: 0, first: [] };
    const named = below.first.slice(0, PAGES_NAMED);
    const more = below.count > PAGES_NAMED ? ` and ${below.count - PAGES_NAMED} more` : "";
    return {
      key: assertion.key,
      level,
      passed: false,
      actual,
      expected: everywhere,
      message: `check ${summary.id}: ${how} of ${summary.pages} pages, expected ${everywhere}${named.length > 0 ? `: ${named.join(", ")}${more}` : ""}`,
    };
  });
