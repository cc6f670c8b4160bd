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

/**
 * The checks that read a full scan's agentic measurements (the snapshot's `agent`); every other
 * check judges a snapshot alike with or without them, so a scan runs those while axe-core is
 * still running in the browser (packages/scanner/src/scan-page.ts).
 */
export const agentCaptureChecks: ReadonlySet<CheckDefinition> = new Set(agenticChecks);
