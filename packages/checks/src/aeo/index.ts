import type { CheckDefinition } from "../check";

/** The AEO checks of checks.md, in its order. */
export const aeoChecks: CheckDefinition[] = [];
