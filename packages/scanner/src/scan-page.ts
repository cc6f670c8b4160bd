import { agentCaptureChecks, checksFor, type Page, preparePage, runChecksYielding, scoreChecks } from "@scan/checks";
import type { CheckResult, ScanMode, Snapshot } from "@scan/contract";
import { ScanOutcome } from "@scan/contract";
import type { BrowserPool } from "./browser-pool";
import { type CapturedPage, type CaptureLimits, captureSnapshot } from "./capture";
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
  /**
   * captureMs: fetch, render and site files, until the DOM is handed to the checks; checksMs: the
   * checks; agentWaitMs: how long the agentic checks waited for axe after the page checks ended
   */
  timings: { captureMs: number; checksMs: number; agentWaitMs: number };
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
  // the snapshot comes out as soon as the DOM is read and the site files are in; the render's
  // turn and its browser stay taken until the agent capture (axe) has ended in Chromium, so that
  // SCAN_RENDERS_AT_ONCE still bounds what Chromium runs at once
  const captured = await new Promise<CapturedPage>((handOver, fail) => {
    renderTurn(() =>
      pool.use(async (browser) => {
        const capture = await captureSnapshot(
          () => pool.openPage(browser),
          { url, mode },
          scanPolicy,
          limits,
          servedReader
            ? (rawHtml) => {
                servedText = servedReader.read(rawHtml);
              }
            : undefined,
        );
        handOver(capture);
        await capture.agent;
      }),
    ).catch(fail);
  });
  const { snapshot } = captured;
  const capturedAt = performance.now();
  // read while the page rendered: usually there already; checks time counts any wait for it
  const readings = { servedText: await servedText };
  const scannedAt = new Date();
  const page = preparePage(snapshot, scannedAt, readings);
  const all = checksFor(mode);
  // the page checks run while axe runs in Chromium; the agentic ones once it has ended. Both let
  // the event loop run between checks: a page of megabytes must not hold the worker's job locks
  // unrenewed, nor the render of another page, for the seconds its checks take
  const pageChecks = await runChecksYielding(snapshot, {
    mode,
    scannedAt,
    page,
    only: all.filter((check) => !agentCaptureChecks.has(check)),
  });
  const waitFrom = performance.now();
  const agent = await captured.agent;
  const agentWaitMs = Math.round(performance.now() - waitFrom);
  if (agent) snapshot.agent = agent;
  const agentChecks = await runChecksYielding(snapshot, {
    mode,
    scannedAt,
    page,
    only: all.filter((check) => agentCaptureChecks.has(check)),
  });
  // the results in the catalogue's order, as one run gives them
  let nextPage = 0;
  let nextAgent = 0;
  const checks = all.map((check) =>
    agentCaptureChecks.has(check) ? (agentChecks[nextAgent++] as CheckResult) : (pageChecks[nextPage++] as CheckResult),
  );
  const checksMs = Math.round(performance.now() - capturedAt) - agentWaitMs;
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
    timings: { captureMs: Math.round(capturedAt - startedAt), checksMs, agentWaitMs },
    snapshot,
    page,
  };
};
