import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Snapshot, TextResource } from "@scan/contract";
import type { CheckDefinition, Verdict } from "./check";
import { preparePage } from "./page";
import { sharedCorpus } from "./shared-data";

export { SHARED_DATA_DIR, type SharedCorpus, sharedCorpus } from "./shared-data";

/** A snapshot of a plain, healthy HTML page served with 200, for check tests. */
export const snapshotOf = (html: string, overrides: Partial<Snapshot> = {}): Snapshot => ({
  requestedUrl: "https://example.com/page",
  finalUrl: "https://example.com/page",
  status: 200,
  redirects: [],
  redirectLoop: false,
  headers: { "content-type": "text/html; charset=utf-8" },
  ttfbMs: 50,
  rawHtml: html,
  renderedHtml: html,
  rendered: true,
  renderReason: "test fixture",
  robotsTxt: null,
  llmsTxt: null,
  sitemap: null,
  subresources: [],
  botFetches: [],
  ...overrides,
});

export const FIXED_SCAN_TIME = new Date("2026-06-01T12:00:00Z");

/** Runs one check over an HTML fixture (or a full snapshot) and returns its verdict. */
export const judge = (
  check: CheckDefinition,
  html: string,
  overrides: Partial<Snapshot> = {},
  scannedAt: Date = FIXED_SCAN_TIME,
): Verdict => check.run(preparePage(snapshotOf(html, overrides), scannedAt));

/** A site file (robots.txt, llms.txt, sitemap) as the worker records it, for check tests. */
export const siteFile = (path: string, body: string, status = 200, contentType = "text/plain"): TextResource => ({
  url: `https://example.com${path}`,
  status,
  contentType,
  body,
  truncated: false,
  error: null,
});

/** Where the real-page corpus's pages are kept (shared test data, outside the repository). */
export const corpusPagesDir = (): string => join(sharedCorpus("corpus"), "pages");

/**
 * A page of the real-page corpus as a snapshot, browser-free: its raw and rendered HTML are the
 * saved file, served as http://127.0.0.1:8080/<name>/ with no robots.txt, llms.txt or sitemap
 * (as the corpus server serves it).
 */
export const corpusSnapshot = (name: string, overrides: Partial<Snapshot> = {}): Snapshot => {
  const url = `http://127.0.0.1:8080/${name}/`;
  const missing = (path: string) => ({ ...siteFile(path, "not found", 404), url: `http://127.0.0.1:8080${path}` });
  return snapshotOf(readFileSync(join(corpusPagesDir(), name, "index.html"), "utf8"), {
    requestedUrl: url,
    finalUrl: url,
    robotsTxt: missing("/robots.txt"),
    llmsTxt: missing("/llms.txt"),
    sitemap: missing("/sitemap.xml"),
    ...overrides,
  });
};

/** Runs one check over a page of the real-page corpus (`corpusSnapshot`). */
export const judgeCorpusPage = (check: CheckDefinition, name: string, scannedAt: Date = FIXED_SCAN_TIME): Verdict =>
  check.run(preparePage(corpusSnapshot(name), scannedAt));
