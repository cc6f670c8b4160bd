import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { allChecks, parseDocument, preparePage } from "@scan/checks";
import type { Snapshot } from "@scan/contract";

/**
 * Every check's verdict on every page of the real-page corpus, browser-free: the saved HTML is
 * both the served and the rendered page, at http://127.0.0.1:8080/<name>/ with no robots.txt,
 * llms.txt or sitemap (as the corpus server serves it), judged at one fixed time.
 *
 * With `rendered: "reserialized"` the rendered page is the saved HTML parsed and serialised
 * again, as a browser hands back its DOM: the served and the rendered HTML then differ in text,
 * as in a real scan, and the checks read each as they do there (the served HTML's own DOM and
 * main content).
 *
 * This file imports only what every version of the checks package offers (`allChecks`,
 * `parseDocument`, `preparePage`, `Snapshot`), so that it can be copied into an older tree and run there: the
 * same pages through two versions of the rules.
 */

export type Verdict = { status: string; description: string; fix: string; evidence?: string[] };
/** page → check id → verdict */
export type Verdicts = Record<string, Record<string, Verdict>>;

/** the time every page is judged at (freshness and dates are relative to it) */
export const SCANNED_AT = new Date("2026-06-01T12:00:00Z");

export type RenderedHtml = "same" | "reserialized";

/** A corpus page as a scan's snapshot (scripts/bench-checks.ts judges the same). */
export const snapshotOf = (pages: string, name: string, rendered: RenderedHtml): Snapshot => {
  const url = `http://127.0.0.1:8080/${name}/`;
  const html = readFileSync(join(pages, name, "index.html"), "utf8");
  const missing = (path: string) => ({
    url: `http://127.0.0.1:8080${path}`,
    status: 404,
    contentType: "text/plain",
    body: "not found",
    truncated: false,
    error: null,
  });
  return {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    redirects: [],
    redirectLoop: false,
    headers: { "content-type": "text/html; charset=utf-8" },
    ttfbMs: 50,
    rawHtml: html,
    renderedHtml: rendered === "same" ? html : `<!DOCTYPE html>${parseDocument(html).documentElement.outerHTML}`,
    rendered: true,
    renderReason: "corpus snapshot",
    robotsTxt: missing("/robots.txt"),
    llmsTxt: missing("/llms.txt"),
    sitemap: missing("/sitemap.xml"),
    subresources: [],
    botFetches: [],
  };
};

/** The verdict of each of this tree's checks on the page `name` under `pages`, by check id. */
export const pageVerdicts = (pages: string, name: string, rendered: RenderedHtml = "same"): Record<string, Verdict> => {
  const page = preparePage(snapshotOf(pages, name, rendered), SCANNED_AT);
  const row: Record<string, Verdict> = {};
  for (const check of allChecks) {
    try {
      const verdict = check.run(page) as Verdict & { evidence?: readonly string[] };
      row[check.id] = {
        status: verdict.status,
        description: verdict.description,
        fix: verdict.fix ?? "",
        ...(verdict.evidence ? { evidence: [...verdict.evidence] } : {}),
      };
    } catch (error) {
      // as the scanner reports it (packages/checks/src/run.ts)
      const reason = error instanceof Error ? error.message : String(error);
      row[check.id] = { status: "skip", description: `The check could not run on this page: ${reason}`, fix: "" };
    }
  }
  return row;
};

/** The verdicts of this tree's checks on every page under `pages` (a folder of <name>/index.html). */
export const extractVerdicts = (pages: string, rendered: RenderedHtml = "same"): Verdicts => {
  const verdicts: Verdicts = {};
  for (const name of readdirSync(pages).sort()) verdicts[name] = pageVerdicts(pages, name, rendered);
  return verdicts;
};
