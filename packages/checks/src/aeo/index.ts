import type { CheckDefinition } from "../check";
import { contentDepth, listsAndTables, semanticLandmarks, subheadings, summaryIntro } from "./content.check";
import { anchorIds, answerFirst, qaContent } from "./questions.check";
import { readability } from "./readability.check";
import {
  articleSchema,
  breadcrumbSchema,
  faqSchema,
  organizationSchema,
  speakable,
  structuredData,
} from "./schema.check";

/** The AEO checks in checks.md order. */
export const aeoChecks: readonly CheckDefinition[] = [
  structuredData,
  organizationSchema,
  faqSchema,
  articleSchema,
  breadcrumbSchema,
  speakable,
  qaContent,
  answerFirst,
  summaryIntro,
  listsAndTables,
  contentDepth,
  subheadings,
  semanticLandmarks,
  readability,
  anchorIds,
];
