import { Grade } from "@scan/contract";
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
 *   `{"minScore": 0.5}` a warning (half the points) is enough.
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
 * otherwise assert nothing). Throws an Error naming what is wrong.
 */
export const readAssertions = (raw: unknown, knownChecks: ReadonlySet<string>, where: string): Assertion[] => {
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

/** Each assertion that is not `off`, judged on a completed scan. */
export const evaluateAssertions = (assertions: readonly Assertion[], page: PageReport): AssertionResult[] =>
  assertions.flatMap((assertion): AssertionResult[] => {
    if (assertion.level === "off") return [];
    const level = assertion.level;
    if ("minGrade" in assertion) {
      const grade = page.grade ?? "F";
      const rank = GRADE_ORDER.indexOf(grade as Grade);
      const passed = rank !== -1 && rank <= GRADE_ORDER.indexOf(assertion.minGrade);
      return [
        {
          key: "grade",
          level,
          passed,
          actual: grade,
          expected: `${assertion.minGrade} or better`,
          message: passed
            ? `grade ${grade} is ${assertion.minGrade} or better`
            : `grade ${grade} is below ${assertion.minGrade}`,
        },
      ];
    }
    if (!("kind" in assertion)) {
      const area = assertion.key.slice("categories:".length) as "seo" | "aeo" | "geo" | "overall";
      const score = page.scores?.[area] ?? 0;
      const passed = score >= assertion.minScore;
      const label = AREA_LABEL[assertion.key];
      return [
        {
          key: assertion.key,
          level,
          passed,
          actual: String(score),
          expected: `at least ${assertion.minScore}`,
          message: passed
            ? `${label} ${score} is at least ${assertion.minScore}`
            : `${label} ${score} is below ${assertion.minScore}`,
        },
      ];
    }
    const check = page.checks.find((candidate) => candidate.id === assertion.key);
    const expected = assertion.minScore >= 1 ? "pass" : `at least ${assertion.minScore * 100}% of its points`;
    if (!check) {
      return [
        {
          key: assertion.key,
          level,
          passed: false,
          actual: "not run",
          expected,
          message: `check ${assertion.key} was not run${page.mode === "quick" ? " (a quick scan runs the 20 core checks; use --mode full)" : ""}`,
        },
      ];
    }
    // a check that does not apply to the page (skip) has nothing wrong with it
    const share = check.status === "skip" ? 1 : check.score / check.maxScore;
    const passed = share >= assertion.minScore;
    return [
      {
        key: assertion.key,
        level,
        passed,
        actual: check.status,
        expected,
        message: passed
          ? `check ${check.id}: ${check.status}`
          : `check ${check.id}: ${check.status}, expected ${expected}: ${check.description}`,
      },
    ];
  });
