import { aeoChecks } from "./aeo";
import type { CheckDefinition } from "./check";
import { geoChecks } from "./geo";
import { seoChecks } from "./seo";

/** The catalogue in docs/spec/checks.md order: SEO, AEO, GEO. */
export const allChecks: readonly CheckDefinition[] = [...seoChecks, ...aeoChecks, ...geoChecks];

export const quickChecks: readonly CheckDefinition[] = allChecks.filter((c) => c.quick);

export const checksFor = (mode: "quick" | "full"): readonly CheckDefinition[] =>
  mode === "quick" ? quickChecks : allChecks;
