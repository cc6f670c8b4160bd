import type { PageReport } from "./page-report";

/**
 * One page as JSON, for programs: the page report's fields, then whatever the caller adds
 * (the command-line client adds its assertions' outcomes).
 */
export const renderJson = (page: PageReport, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ ...page, ...extra }, null, 2)}\n`;
