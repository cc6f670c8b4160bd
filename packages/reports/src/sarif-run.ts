import { createHash } from "node:crypto";
import type { CheckResult, CheckSeverity } from "@scan/contract";
import type { PageReport } from "./page-report";

/**
 * The parts of a SARIF 2.1.0 log, shared by a list of pages (sarif.ts) and an audit
 * (audit-sarif.ts): rules from checks, pages as artifacts, results located at a page, the
 * stable fingerprint; sarif-log.ts lays out the log around one run.
 */

/** The OASIS SARIF 2.1.0 schema (errata 01), the one the log names as its `$schema`. */
export const SARIF_SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** The key of each result's fingerprint in `partialFingerprints`; its version changes if the recipe does. */
export const FINGERPRINT_KEY = "aeoScanFinding/v1";

type Level = "error" | "warning" | "note";

/** A rule's own level: what a failure of the check means. */
const LEVEL_OF_SEVERITY: Record<CheckSeverity, Level> = { critical: "error", warning: "warning", info: "note" };

/** A warning (half the points) is one step milder than a failure of the same check. */
const MILDER: Record<Level, Level> = { error: "warning", warning: "note", note: "note" };

export const levelOf = (check: Pick<CheckResult, "status" | "severity">): Level =>
  check.status === "warn" ? MILDER[LEVEL_OF_SEVERITY[check.severity]] : LEVEL_OF_SEVERITY[check.severity];

/**
 * The evidence as the fingerprint reads it: case, spacing and numbers do not count, so "Title
 * is 72 characters" and "Title is 75 characters" (or a TTFB of 812 ms and 790 ms) stay the
 * same finding from scan to scan, while a different finding on the same check does not.
 */
const evidenceOf = (description: string): string =>
  description
    .toLowerCase()
    .replace(/\d[\d.,]*/g, "#")
    .replace(/\s+/g, " ")
    .trim();

/** sha-256 of check id, scanned URL and evidence: stable for the same finding on the same page. */
export const fingerprintOf = (check: Pick<CheckResult, "id" | "description">, url: string): string =>
  createHash("sha256")
    .update(`${check.id}\n${url}\n${evidenceOf(check.description)}`)
    .digest("hex");

/** `meta-description` → `MetaDescription`: SARIF's readable rule name beside the opaque id. */
const ruleName = (id: string): string =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");

/** Where a check looks: at one page, or (an audit's site checks) across the site's pages. */
export type CheckScope = "page" | "site";

const ruleOf = (check: Omit<CheckResult, "status" | "score" | "description" | "fix">, scope?: CheckScope) => {
  const level = LEVEL_OF_SEVERITY[check.severity];
  const area = check.category.toUpperCase();
  return {
    id: check.id,
    name: ruleName(check.id),
    shortDescription: { text: check.title },
    fullDescription: {
      text:
        scope === "site"
          ? `${check.title}. A site-wide ${area} check of ${check.severity} severity, worth ${check.maxScore} points of the site's ${area} score.`
          : `${check.title}. A ${area} check of ${check.severity} severity, worth ${check.maxScore} points of its area's score.`,
    },
    defaultConfiguration: { level },
    properties: {
      area: check.category,
      severity: check.severity,
      maxScore: check.maxScore,
      ...(check.evidence
        ? {
            evidence: check.evidence.grade,
            ...(check.evidence.source ? { evidenceSource: check.evidence.source.url } : {}),
          }
        : {}),
      ...(scope ? { scope } : {}),
      tags: [check.category, check.severity],
      // GitHub code scanning's name for a non-security rule's severity
      "problem.severity": level === "note" ? "recommendation" : level,
    },
  };
};

/** The driver's rules, one per check id in the order first met, with each one's index. */
export const ruleSet = () => {
  const rules: ReturnType<typeof ruleOf>[] = [];
  const index = new Map<string, number>();
  return {
    rules,
    add: (check: Parameters<typeof ruleOf>[0], scope?: CheckScope) => {
      if (index.has(check.id)) return;
      index.set(check.id, rules.length);
      rules.push(ruleOf(check, scope));
    },
    indexOf: (id: string) => index.get(id) ?? -1,
  };
};
export type RuleSet = ReturnType<typeof ruleSet>;

/**
 * How results point at the scanned page. `url`: the page's absolute URL, as SARIF means an
 * artifact location. `github`: the URL without its scheme (`example.com/page?q=1`), a relative
 * reference: GitHub code scanning refuses a whole log whose locations use another scheme than
 * its checkout's `file:` ("SARIF URI scheme "https" did not match the checkout URI scheme"),
 * and shows a relative one as a path. The full URL stays in the artifact's properties.
 */
export type SarifLocations = "url" | "github";

export const locationUri = (url: string, locations: SarifLocations): string => {
  if (locations === "url") return url;
  const parsed = new URL(url);
  // an IPv6 host's brackets may not stand in a path
  const path = `${parsed.host.replace("[", "%5B").replace("]", "%5D")}${parsed.pathname}${parsed.search}`;
  // a first segment with a colon (a port) would read as a scheme: ./ keeps it a path
  return parsed.port ? `./${path}` : path;
};

/** A location at a URL; with the index of the run's artifact for it, when it is one. */
export const locationAt = (url: string, locations: SarifLocations, index?: number) => ({
  physicalLocation: {
    artifactLocation: { uri: locationUri(url, locations), ...(index === undefined ? {} : { index }) },
  },
});

export const pageArtifact = (page: PageReport, locations: SarifLocations) => ({
  location: { uri: locationUri(page.url, locations) },
  roles: ["analysisTarget"],
  properties: {
    url: page.url,
    finalUrl: page.finalUrl,
    scanId: page.id,
    mode: page.mode,
    status: page.status,
    grade: page.grade,
    scores: page.scores,
    scannedAt: page.scannedAt,
    // judged on the HTML as served because the render failed: what scripts add was not seen
    renderFailure: page.renderFailure,
  },
});

const messageOf = (check: CheckResult): string =>
  check.fix ? `${check.description} Fix: ${check.fix}` : check.description;

/** A result for each check of the page that failed or warned, located at the page (artifact `index`). */
export const pageResults = (page: PageReport, index: number, rules: RuleSet, locations: SarifLocations) =>
  page.checks
    .filter((check) => check.status === "fail" || check.status === "warn")
    .map((check) => ({
      ruleId: check.id,
      ruleIndex: rules.indexOf(check.id),
      kind: "fail",
      level: levelOf(check),
      message: { text: messageOf(check) },
      locations: [locationAt(page.url, locations, index)],
      partialFingerprints: { [FINGERPRINT_KEY]: fingerprintOf(check, page.url) },
      properties: {
        status: check.status,
        severity: check.severity,
        score: check.score,
        maxScore: check.maxScore,
        ...(check.fix ? { fix: check.fix } : {}),
      },
    }));

/** A page whose scan failed, as an error notification of the run's invocation; none for a page that was scanned. */
export const failureNotifications = (page: PageReport, index: number, locations: SarifLocations) =>
  page.status === "failed"
    ? [
        {
          level: "error",
          message: { text: `The scan of ${page.url} failed: ${page.error?.message ?? "it did not complete"}` },
          locations: [locationAt(page.url, locations, index)],
          properties: { code: page.error?.code ?? "error" },
        },
      ]
    : [];
