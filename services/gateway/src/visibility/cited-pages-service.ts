import { randomUUID } from "node:crypto";
import { AppError, CheckResult, type CitedPagesView, type CitedPageView, normaliseScanUrl } from "@scan/contract";
import type { Db, Scan, VisibilityRun } from "@scan/db";
import { type NewCitedPage, type NewScan, visibilityCited } from "@scan/records";
import { type CheckVerdict, type CitedPage, checkGaps, citedPagesOf, type PromptCitedPages } from "@scan/visibility";
import type { Logger } from "pino";
import { z } from "zod";
import type { AccountCaller } from "../access/authenticate";
import type { ScanService } from "../scans";
import { runNotFound } from "./run-service";

/** How many of a run's cited pages are scanned, and how recent a scan of the same address must be to be taken instead. */
export type CitedPageLimits = {
  /** the brand's pages, most cited first */
  brandPages: number;
  /** pages cited where the brand's were not, most cited first */
  competitorPages: number;
  /** a completed scan of the same address by the workspace within this long is taken, none is made */
  reuseWithinMs: number;
};

export type CitedPagesService = {
  /** Sends a completed run's cited pages to be scanned; `started: false` when they had been already. */
  start: (
    caller: AccountCaller,
    runId: string,
    requestId: string,
  ) => Promise<{ started: boolean; view: CitedPagesView }>;
  /** The run's cited pages side by side, per prompt, with their scans and what the brand's pages lack. */
  read: (workspaceId: string, runId: string) => Promise<CitedPagesView>;
};

/** Thrown in the storing transaction when another request stored the run's pages first: nothing of this one is kept. */
class AlreadyStarted extends Error {}

/** Seconds a caller waits before asking again about a run under way. */
const RUN_UNDER_WAY_RETRY_S = 60;

const StoredCitation = z.object({ url: z.string(), domain: z.string() });
const StoredCitations = z.array(StoredCitation).catch([]);
const StoredChecks = z.array(CheckResult).catch([]);

type ScanColumns = Pick<
  Scan,
  | "id"
  | "status"
  | "mode"
  | "seo"
  | "aeo"
  | "geo"
  | "overall"
  | "grade"
  | "completedAt"
  | "errorCode"
  | "errorMessage"
  | "checks"
>;

const SCAN_SELECT = {
  id: true,
  status: true,
  mode: true,
  seo: true,
  aeo: true,
  geo: true,
  overall: true,
  grade: true,
  completedAt: true,
  errorCode: true,
  errorMessage: true,
  checks: true,
} as const;

type Joined = {
  page: Pick<CitedPage, "url" | "domain" | "side" | "competitor" | "citations">;
  refused: string | null;
  scan: ScanColumns | null;
  reused: boolean;
  started: boolean;
};

const viewOf = ({ page, refused, scan, reused, started }: Joined): CitedPageView => ({
  url: page.url,
  domain: page.domain,
  side: page.side,
  competitor: page.competitor,
  citations: page.citations,
  state: !started ? "not_started" : refused !== null ? "refused" : scan ? scan.status : "missing",
  refused,
  scan: scan
    ? {
        id: scan.id,
        status: scan.status,
        reused,
        mode: scan.mode,
        seo: scan.seo,
        aeo: scan.aeo,
        geo: scan.geo,
        overall: scan.overall,
        grade: scan.grade,
        completed_at: scan.completedAt?.toISOString() ?? null,
        error: scan.errorCode ? { code: scan.errorCode, message: scan.errorMessage ?? "" } : null,
      }
    : null,
});

const verdictsOf = (scan: ScanColumns | null): CheckVerdict[] | null =>
  scan?.status === "completed" && Array.isArray(scan.checks) ? StoredChecks.parse(scan.checks) : null;

/**
 * A completed run's cited pages joined to the audit: the brand's pages and the pages cited in
 * answers that cited none of the brand's, scanned through the scan intake (the address policy, the
 * workspace's monthly quota, the queue and the scan workers), and read side by side per prompt.
 */
export const createCitedPagesService = ({
  db,
  scans,
  limits,
  log,
}: {
  db: Db;
  scans: Pick<ScanService, "refusalOf" | "storeAndQueue">;
  limits: CitedPageLimits;
  log: Logger;
}): CitedPagesService => {
  const bounds = { brandPages: limits.brandPages, competitorPages: limits.competitorPages };

  const ownRun = async (workspaceId: string, runId: string) => {
    const run = await db.visibilityRun.findFirst({ where: { id: runId, workspaceId } });
    if (!run) throw runNotFound(runId);
    return run;
  };

  /** What the run's completed answers cited, chosen within the bounds. */
  const planOf = async (run: VisibilityRun) => {
    const [answers, site, competitors] = await Promise.all([
      db.visibilitySample.findMany({
        where: { runId: run.id, status: "completed" },
        select: { promptId: true, promptText: true, citations: true },
      }),
      db.site.findUniqueOrThrow({
        where: { id: run.siteId },
        select: { domain: true, visibilityProfile: { select: { brandDomains: true } } },
      }),
      db.competitor.findMany({ where: { siteId: run.siteId }, select: { name: true, domains: true } }),
    ]);
    return citedPagesOf(
      answers.map((answer) => ({
        promptId: answer.promptId,
        promptText: answer.promptText,
        citations: StoredCitations.parse(answer.citations),
      })),
      site.visibilityProfile?.brandDomains ?? [site.domain],
      competitors,
      bounds,
    );
  };

  const assertCompleted = (run: VisibilityRun) => {
    if (run.status === "queued" || run.status === "running")
      throw new AppError(
        "scan_not_finished",
        `Visibility run ${run.id} is ${run.status}: its cited pages are known once it has completed`,
        `Follow GET /api/v1/visibility/runs/${run.id} until its status is completed, then ask again.`,
        { "Retry-After": String(RUN_UNDER_WAY_RETRY_S) },
      );
    if (run.status !== "completed")
      throw new AppError(
        "conflict",
        `Visibility run ${run.id} is ${run.status}: only a completed run's cited pages are scanned`,
        "Start another run with POST /api/v1/sites/{id}/visibility/runs and scan its cited pages once it has completed.",
      );
  };

  const read: CitedPagesService["read"] = async (workspaceId, runId) => {
    const run = await ownRun(workspaceId, runId);
    const [plan, stored] = await Promise.all([
      planOf(run),
      db.visibilityCitedPage.findMany({
        where: { runId: run.id, workspaceId },
        include: { scan: { select: SCAN_SELECT } },
        orderBy: [{ citations: "desc" }, { url: "asc" }],
      }),
    ]);
    const started = stored.length > 0;
    // once sent, the pages are those stored then; before, those the run would send now
    const joined: Joined[] = started
      ? stored.map((row) => ({
          page: {
            url: row.url,
            domain: row.domain,
            side: row.side === "brand" ? "brand" : "competitor",
            competitor: row.competitor,
            citations: row.citations,
          },
          refused: row.refusedReason,
          scan: row.scan,
          reused: row.reused,
          started,
        }))
      : plan.pages.map((page) => ({ page, refused: null, scan: null, reused: false, started }));
    const byUrl = new Map(joined.map((entry) => [entry.page.url, entry]));
    const runBrandPage = joined.find((entry) => entry.page.side === "brand") ?? null;
    const prompts = plan.prompts.map((prompt: PromptCitedPages) => {
      const brandPages = prompt.brand.flatMap((cited) => {
        const entry = byUrl.get(cited.url);
        return entry ? [{ ...viewOf(entry), prompt_citations: cited.citations }] : [];
      });
      const versus = (brandPages[0] ? byUrl.get(brandPages[0].url) : undefined) ?? runBrandPage;
      const yours = verdictsOf(versus?.scan ?? null);
      return {
        prompt_id: prompt.promptId,
        prompt: prompt.prompt,
        brand_pages: brandPages,
        competitor_pages: prompt.competitor.flatMap((cited) => {
          const entry = byUrl.get(cited.url);
          if (!entry) return [];
          const theirs = verdictsOf(entry.scan);
          return [
            {
              ...viewOf(entry),
              prompt_citations: cited.citations,
              compared_with: versus?.page.url ?? null,
              lacks: yours && theirs ? checkGaps(yours, theirs) : null,
            },
          ];
        }),
      };
    });
    const pages = joined.map(viewOf);
    const count = (states: readonly string[]) => pages.filter((page) => states.includes(page.state)).length;
    return {
      run_id: run.id,
      site_id: run.siteId,
      started,
      started_at: started ? new Date(Math.min(...stored.map((row) => row.createdAt.getTime()))).toISOString() : null,
      bounds: {
        brand_pages: limits.brandPages,
        competitor_pages: limits.competitorPages,
        reuse_within_hours: Math.round(limits.reuseWithinMs / 3_600_000),
      },
      counts: {
        pages: pages.length,
        completed: count(["completed"]),
        pending: count(["not_started", "queued", "running"]),
        failed: count(["failed", "missing"]),
        refused: count(["refused"]),
        reused: pages.filter((page) => page.scan?.reused).length,
      },
      pages,
      prompts,
    };
  };

  const start: CitedPagesService["start"] = async (caller, runId, requestId) => {
    const run = await ownRun(caller.workspaceId, runId);
    assertCompleted(run);
    if ((await db.visibilityCitedPage.count({ where: { runId: run.id } })) > 0)
      return { started: false, view: await read(caller.workspaceId, runId) };
    const plan = await planOf(run);
    const since = new Date(Date.now() - limits.reuseWithinMs);
    const rows: NewCitedPage[] = [];
    const fresh = new Map<string, NewScan>();
    for (const page of plan.pages) {
      const base = {
        runId: run.id,
        workspaceId: run.workspaceId,
        url: page.url,
        domain: page.domain,
        side: page.side,
        competitor: page.competitor,
        citations: page.citations,
      };
      const normalised = normaliseScanUrl(page.url, "A");
      if (!normalised.ok) {
        rows.push({ ...base, scanUrl: page.url, refusedReason: normalised.reason });
        continue;
      }
      const scanUrl = normalised.url;
      // the one address policy, before anything is stored or queued; the scanner vets every hop again
      const refusal = await scans.refusalOf(scanUrl);
      if (refusal !== null) {
        rows.push({ ...base, scanUrl, refusedReason: refusal });
        continue;
      }
      const planned = fresh.get(scanUrl);
      if (planned) {
        rows.push({ ...base, scanUrl, scanId: planned.id, reused: false });
        continue;
      }
      const recent = await db.scan.findFirst({
        where: { workspaceId: run.workspaceId, url: scanUrl, status: "completed", completedAt: { gte: since } },
        orderBy: { completedAt: "desc" },
        select: { id: true },
      });
      if (recent) {
        rows.push({ ...base, scanUrl, scanId: recent.id, reused: true });
        continue;
      }
      const scan: NewScan = { id: randomUUID(), url: scanUrl, mode: "quick", requestId };
      fresh.set(scanUrl, scan);
      rows.push({ ...base, scanUrl, scanId: scan.id, reused: false });
    }
    if (rows.length === 0) return { started: false, view: await read(caller.workspaceId, runId) };
    const link = async (tx: Parameters<typeof visibilityCited.insertCitedPages>[0]) => {
      const stored = await visibilityCited.insertCitedPages(tx, rows);
      if (stored < rows.length) throw new AlreadyStarted(run.id);
    };
    try {
      if (fresh.size === 0) await db.$transaction((tx) => link(tx));
      else {
        const queued = await scans.storeAndQueue([...fresh.values()], caller, link);
        // rows stay queued; the worker's reaper queues them from their rows once the queue is back
        if (!queued) log.warn({ runId: run.id, scans: fresh.size }, "cited page scans stored, not queued yet");
      }
    } catch (error) {
      if (error instanceof AlreadyStarted) return { started: false, view: await read(caller.workspaceId, runId) };
      throw error;
    }
    return { started: true, view: await read(caller.workspaceId, runId) };
  };

  return { start, read };
};
