import type { CheckDefinition } from "../check";
import { title } from "./title.check";

/** The SEO checks of checks.md, in its order. */
export const seoChecks: CheckDefinition[] = [title];
