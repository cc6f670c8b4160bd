import type { PageReport } from "./page-report";

/**
 * A document written page by page, so that what it costs to make does not grow with the number
 * of pages: it is text, and passes over the pages, each of which writes a part per page. The
 * document is a generator, resumed once a pass has read every page, so what follows a pass may
 * use what the pass gathered (SARIF writes its rules, gathered from every page's checks, before
 * its results). A pass that does not read the pages' checks says so: a reader may leave them out.
 */
export type PagePass = {
  /** whether the pass reads each page's checks */
  checks: boolean;
  /** the pass's part for a page, the index its place among the pages (from 0) */
  page: (page: PageReport, index: number) => string;
};

export type PagedDocument = Iterable<string | PagePass>;

/**
 * The pages of a document as a reader gives them, anew for each pass, in the same order each
 * time. Without `checks`, the pages' checks may be left out (empty).
 */
export type PageReader = (pass: { checks: boolean }) => AsyncIterable<PageReport>;

/** The whole document as one string, from pages in memory. */
export const renderPaged = (document: PagedDocument, pages: readonly PageReport[]): string => {
  const parts: string[] = [];
  for (const step of document) {
    if (typeof step === "string") parts.push(step);
    else pages.forEach((page, index) => void parts.push(step.page(page, index)));
  }
  return parts.join("");
};

/**
 * The document in parts as it is written, the pages read as each pass needs them: the same text
 * `renderPaged` makes from the same pages, never more of it held than a page's part. Each page
 * gives a part, empty where the pass writes nothing for it, so that a consumer may stop between
 * any two pages; returning the generator (a client that went away) returns the pass's reader,
 * which stops reading.
 */
export async function* streamPaged(document: PagedDocument, read: PageReader): AsyncGenerator<string> {
  for (const step of document) {
    if (typeof step === "string") {
      if (step) yield step;
      continue;
    }
    let index = 0;
    for await (const page of read({ checks: step.checks })) yield step.page(page, index++);
  }
}
