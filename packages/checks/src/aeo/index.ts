import type { CheckDefinition } from "../check";
import { anchorIds } from "./anchor-ids.check";
import { answerFirst } from "./answer-first.check";
import { articleSchema } from "./article-schema.check";
import { breadcrumbSchema } from "./breadcrumb-schema.check";
import { contentDepth } from "./content-depth.check";
import { faqSchema } from "./faq-schema.check";
import { listsAndTables } from "./lists-and-tables.check";
import { organizationSchema } from "./organization-schema.check";
import { qaContent } from "./qa-content.check";
import { readability } from "./readability.check";
import { semanticLandmarks } from "./semantic-landmarks.check";
import { speakable } from "./speakable.check";
import { structuredData } from "./structured-data.check";
import { subheadings } from "./subheadings.check";
import { summaryIntro } from "./summary-intro.check";

/** The AEO checks of docs/spec/checks.md, in its order. */
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
