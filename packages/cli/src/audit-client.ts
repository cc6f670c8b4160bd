import {
  type AuditPageView,
  AuditPageView as AuditPageViewSchema,
  type AuditView,
  AuditView as AuditViewSchema,
  type ScanMode,
} from "@scan/contract";
import { z } from "zod";
import { apiCaller, CliError } from "./api-client";

export type AuditClientOptions = {
  baseUrl: string;
  apiKey: string;
  /** the whole wait for the audit */
  timeoutMs: number;
  /** the first pause between two reads of the audit; it grows to 15 s */
  pollMs: number;
  onProgress: (status: string) => void;
};

/** An audit takes minutes and each read counts against the key's hourly limit: read it seldom. */
const MAX_POLL_MS = 15_000;
const BAR = 20;

/** `running [#######-------------] 123/319 pages` */
export const progressLine = (audit: AuditView): string => {
  const { discovered, queued, running } = audit.progress;
  const done = discovered - queued - running;
  if (audit.status === "discovering") return "discovering (robots.txt, sitemaps)";
  if (discovered === 0) return audit.status;
  const filled = Math.round((done / discovered) * BAR);
  return `${audit.status} [${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${done}/${discovered} pages`;
};

/**
 * Audits a site through the API: records the site of the URL's origin (POST /api/v1/sites,
 * safe to repeat), starts an audit, and reads it until it has finished, reporting progress.
 * Needs an API key: audits belong to a key's user.
 */
export const auditViaApi = async (
  { baseUrl, apiKey, timeoutMs, pollMs, onProgress }: AuditClientOptions,
  { url, mode, maxPages }: { url: string; mode: ScanMode; maxPages?: number },
): Promise<AuditView> => {
  const call = apiCaller(baseUrl, {
    accept: "application/json",
    "x-response-form": "A",
    authorization: `Bearer ${apiKey}`,
  });
  const post = (path: string, body: unknown) =>
    call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  onProgress("starting");
  const site = (await post("/api/v1/sites", { url })).body.data as { id: string };
  const started = AuditViewSchema.parse(
    (await post(`/api/v1/sites/${site.id}/audits`, { mode, ...(maxPages ? { max_pages: maxPages } : {}) })).body.data,
  );
  const location = new URL(`/api/v1/audits/${started.id}`, baseUrl);
  const deadline = Date.now() + timeoutMs;
  let pause = pollMs;
  let audit = started;
  for (;;) {
    onProgress(progressLine(audit));
    if (audit.status === "completed" || audit.status === "failed" || audit.status === "cancelled") return audit;
    if (Date.now() + pause > deadline)
      throw new CliError(
        `the audit did not finish within ${Math.round(timeoutMs / 1000)} s; it goes on as ${audit.id}: GET ${location}`,
      );
    await new Promise((resolve) => setTimeout(resolve, pause));
    try {
      audit = AuditViewSchema.parse((await call(location.href)).body.data);
    } catch (error) {
      if (error instanceof CliError)
        throw new CliError(`${error.message}\nThe audit goes on as ${started.id}: GET ${location}`);
      throw error;
    }
    pause = Math.min(MAX_POLL_MS, Math.round(pause * 1.5));
  }
};

const PAGES_PER_READ = 100;
const PageOfPages = z.object({ data: z.array(AuditPageViewSchema), meta: z.object({ hasMore: z.boolean() }) });

/**
 * Every page of an audit with its checks, as they are read (GET /api/v1/audits/:id/pages, a
 * hundred a read, each read counting against the key's hourly limit): never more than a read's
 * hundred held here.
 */
export async function* auditPagesViaApi(
  { baseUrl, apiKey }: Pick<AuditClientOptions, "baseUrl" | "apiKey">,
  auditId: string,
): AsyncGenerator<AuditPageView> {
  const call = apiCaller(baseUrl, {
    accept: "application/json",
    "x-response-form": "A",
    authorization: `Bearer ${apiKey}`,
  });
  for (let page = 1; ; page++) {
    const { body } = await call(`/api/v1/audits/${auditId}/pages?limit=${PAGES_PER_READ}&page=${page}`);
    const read = PageOfPages.parse(body);
    yield* read.data;
    if (!read.meta.hasMore) return;
  }
}

/** The audit as text: its status, pages, site grade and scores, failing site checks, worst pages. */
export const formatAudit = (audit: AuditView): string => {
  const { progress } = audit;
  const lines = [
    `audit ${audit.id} of ${audit.url} (${audit.mode}): ${audit.status}`,
    `pages: ${progress.discovered} found, ${progress.scanned} scanned, ${progress.failed} failed, ${progress.blocked} blocked by robots.txt`,
  ];
  if (audit.error) lines.push(`error: ${audit.error.message}`);
  const report = audit.report;
  if (report) {
    const { scores } = report;
    lines.push(
      `grade ${report.grade}  overall ${scores.overall}  seo ${scores.seo}  aeo ${scores.aeo}  geo ${scores.geo}${report.partial ? "  (quick: partial)" : ""}`,
    );
    for (const check of report.site_checks) {
      if (check.status !== "fail") continue;
      lines.push(`  fail ${check.id.padEnd(24)} ${check.description}`);
    }
    if (report.worst_pages.length > 0) {
      lines.push("worst pages:");
      for (const page of report.worst_pages.slice(0, 5))
        lines.push(`  ${String(page.overall).padStart(3)} ${page.url}`);
    }
  }
  return `${lines.join("\n")}\n`;
};
