import { type Page, preparePage, runChecks, scoreChecks } from "@scan/checks";
import type { ScanMode, Snapshot } from "@scan/contract";
import { ScanOutcome } from "@scan/contract";
import type { BrowserPool } from "./browser-pool";
import { type CaptureLimits, captureSnapshot } from "./capture";
import type { FetchPolicy, SiteAccess } from "./http-fetch";
import type { ServedReader } from "./served-reader";

export type ScanPageDeps = {
  pool: BrowserPool;
  policy: FetchPolicy;
  limits: CaptureLimits;
  /** reads a full scan's served HTML while the page renders (served-reader.ts); without it the checks read it after */
  servedReader?: ServedReader | undefined;
  /** waits for a capture's turn (`CaptureLimits.rendersAtOnce`); without it captures do not wait */
  renderTurn?: <T>(capture: () => Promise<T>) => Promise<T>;
};

/** One page to scan; `access`: the credentials of a site behind a login, for its own origin only. */
export type ScanRequest = { url: string; mode: ScanMode; access?: SiteAccess | undefined };

export type ScannedPage = {
  outcome: ScanOutcome;
  scannedAt: Date;
  /** why the page was or was not rendered in Chromium */
  renderReason: string;
  timings: { captureMs: number; checksMs: number };
  /** what was captured and judged; kept for the generators when a scan asks for it */
  snapshot: Snapshot;
  /** the snapshot as the checks read it (parsed once), for callers that read more of it (audits) */
  page: Page;
};

/**
 * One page, captured once and judged: the whole scan without storage, shared by the queue
 * job and the command-line client's in-process mode. A target that cannot be fetched throws
 * TargetError.
 */
export const scanPage = async (
  { pool, policy, limits, servedReader, renderTurn = (capture) => capture() }: ScanPageDeps,
  { url, mode, access }: ScanRequest,
): Promise<ScannedPage> => {
  const startedAt = performance.now();
  // a site behind a login: every fetch of this scan to its origin carries its credentials
  const scanPolicy = access ? { ...policy, access } : policy;
  let servedText: Promise<string | undefined> = Promise.resolve(undefined);
  const snapshot = await renderTurn(() =>
    pool.use((browser) =>
      captureSnapshot(
        () => pool.openPage(browser),
        { url, mode },
        scanPolicy,
        limits,
        servedReader
          ? (rawHtml) => {
              servedText = servedReader.read(rawHtml);
            }
          : undefined,
      ),
    ),
  );
  const capturedAt = performance.now();
  // read while the page rendered: usually there already; checks time counts any wait for it
  const readings = { servedText: await servedText };
  const scannedAt = new Date();
  const page = preparePage(snapshot, scannedAt, readings);
  const checks = runChecks(snapshot, { mode, scannedAt, page });
  const checksMs = Math.round(performance.now() - capturedAt);
  const outcome = ScanOutcome.parse({
    finalUrl: snapshot.finalUrl,
    rendered: snapshot.rendered,
    renderFailure: snapshot.renderFailure ?? null,
    ...scoreChecks(checks),
    checks,
  });
  return {
    outcome,
    scannedAt,
    renderReason: snapshot.renderReason,
    timings: { captureMs: Math.round(capturedAt - startedAt), checksMs },
    snapshot,
    page,
  };
};
