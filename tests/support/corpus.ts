import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { sharedCorpus } from "@scan/checks/testing";
import type { Handler } from "./fixture-server";

/**
 * The real-page corpus (../shared/corpus, shared test data kept outside the repository): saved
 * pages and Lighthouse's SEO verdicts. Its folder; a clear error when it is absent.
 */
export const corpusDir = (): string => sharedCorpus("corpus");
const pagesDir = () => join(corpusDir(), "pages");

export const corpusPages = (): string[] => readdirSync(pagesDir()).sort();

/** Our check ↔ the Lighthouse SEO audit it overlaps (docs/spec/checks.md). */
export const LIGHTHOUSE_AUDITS: Readonly<Record<string, string>> = {
  "http-status": "http-status-code",
  title: "document-title",
  "meta-description": "meta-description",
  indexable: "is-crawlable",
  canonical: "canonical",
  "image-alt": "image-alt",
  "link-text": "link-text",
  "crawlable-anchors": "crawlable-anchors",
  hreflang: "hreflang",
  "robots-txt": "robots-txt",
};

/**
 * Whether our verdict agrees with Lighthouse's score: its pass with our pass or skip (not
 * applicable: nothing is faulted), its fail with our warn or fail.
 */
export const agreesWithLighthouse = (status: string, score: number): boolean =>
  score === 1 ? status === "pass" || status === "skip" : status === "warn" || status === "fail";

/** Lighthouse 12.8.2 SEO audit scores per page: 1 pass, 0 fail, null not applicable. */
export const lighthouseVerdicts = (): Record<string, Record<string, number | null>> =>
  JSON.parse(readFileSync(join(corpusDir(), "lighthouse-seo.json"), "utf8"));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".svg": "image/svg+xml",
};

/**
 * Serves the corpus as a site: /<page>/ is the page. Like the server Lighthouse audited them
 * on, it serves no robots.txt, and assets the snapshots reference but do not hold are 404s.
 */
export const serveCorpus: Handler = (req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  const pages = pagesDir();
  const file = normalize(join(pages, path.endsWith("/") ? `${path}index.html` : path));
  if (!file.startsWith(`${pages}/`)) {
    res.writeHead(404).end();
    return;
  }
  readFile(file).then(
    (bytes) => {
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(bytes);
    },
    () => {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    },
  );
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};
