import type { CheckDefinition } from "../check";

/** The GEO checks of checks.md, in its order. */
export const geoChecks: CheckDefinition[] = [];
