import { junitDocument, pageSuites } from "./junit-suites";
import type { PageReport, ToolInfo } from "./page-report";

/**
 * JUnit XML as CI systems read it (junit-suites.ts says which schemas it meets).
 *
 * One test suite per page and area (`SEO checks of <url>`), one test case per check:
 * a check that fails or warns has a `failure` (type `fail` or `warn`), one that did not apply
 * is `skipped`. A page whose scan failed is one suite with one test case in `error`.
 */
export const renderJunit = (pages: readonly PageReport[], tool: ToolInfo): string =>
  junitDocument(pages.flatMap((page) => pageSuites(page, tool)));
