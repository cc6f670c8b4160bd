import { aeoChecks } from "./aeo";
import { agenticChecks } from "./agentic";
import type { CheckDefinition } from "./check";
import { geoChecks } from "./geo";
import { seoChecks } from "./seo";

/**
 * The catalogue in docs/spec/checks.md order: SEO, AEO, GEO; then the agentic-browsing checks
 * (geo too, not in the spec's catalogue: docs/checks.md lists them).
 */
export const allChecks: readonly CheckDefinition[] = [...seoChecks, ...aeoChecks, ...geoChecks, ...agenticChecks];

export const quickChecks: readonly CheckDefinition[] = allChecks.filter((c) => c.quick);

export const checksFor = (mode: "quick" | "full"): readonly CheckDefinition[] =>
  mode === "quick" ? quickChecks : allChecks;
