import type { PageReport, ToolInfo } from "./page-report";
import { sarifLog } from "./sarif-log";
import { failureNotifications, pageArtifact, pageResults, ruleSet, type SarifLocations } from "./sarif-run";

export {
  FINGERPRINT_KEY,
  fingerprintOf,
  levelOf,
  SARIF_SCHEMA_URI,
  type SarifLocations,
} from "./sarif-run";

/**
 * The pages as one SARIF 2.1.0 log with one run: the checks the pages ran are the driver's
 * rules (rule id = check id), each page an analysis target among the run's artifacts (its
 * scores and grade in the artifact's properties), a result for each check that failed or
 * warned, located at the scanned URL. A page whose scan failed is an error notification of the
 * run's invocation, which is then not successful.
 */
export const renderSarif = (
  pages: readonly PageReport[],
  tool: ToolInfo,
  { locations = "url" }: { locations?: SarifLocations } = {},
): string => {
  const rules = ruleSet();
  for (const page of pages) for (const check of page.checks) rules.add(check);
  const failures = pages.flatMap((page, index) => failureNotifications(page, index, locations));
  return sarifLog(tool, rules, {
    invocation: { executionSuccessful: failures.length === 0, toolExecutionNotifications: failures },
    artifacts: pages.map((page) => pageArtifact(page, locations)),
    results: pages.flatMap((page, index) => pageResults(page, index, rules, locations)),
  });
};
