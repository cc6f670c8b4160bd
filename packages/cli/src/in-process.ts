import { parseAllowlist, parsePorts, vetTarget } from "@scan/shared/address-policy";
import type { ScanMode } from "@scan/shared/jobs";
import { captureLimitsOf } from "@scan/worker/config";
import { TargetError } from "@scan/worker/domain/http-fetch";
import { scanPage } from "@scan/worker/domain/scan-page";
import { BrowserPool, resolveChromiumPath } from "@scan/worker/infra/browser-pool";
import { resolveAll, SCANNER_USER_AGENT } from "@scan/worker/worker";
import { CliError } from "./api-client";
import type { CliConfig } from "./config";
import { failedReport, type Report } from "./report";

/**
 * Scans on this machine, with the worker's own capture and checks and a Chromium of its own,
 * when no API is configured. Nothing is stored. The address policy is the service's: private
 * targets need SCAN_ALLOWLIST.
 */
export const scanInProcess = async (
  config: CliConfig,
  { url, mode }: { url: string; mode: ScanMode },
  onProgress: (status: string) => void,
): Promise<Report> => {
  let executablePath: string;
  try {
    executablePath = resolveChromiumPath(config.CHROMIUM_PATH);
  } catch (error) {
    throw new CliError(`${(error as Error).message}, or set SCAN_API_URL to scan through an API`);
  }
  const allowlist = parseAllowlist(config.SCAN_ALLOWLIST);
  const ports = parsePorts(config.SCAN_PORTS);
  const verdict = await vetTarget(new URL(url), allowlist, resolveAll, ports);
  if (!verdict.allowed && !verdict.reason.startsWith("unresolvable")) {
    throw new CliError(`${url} is not scannable: ${verdict.reason} (SCAN_ALLOWLIST=host:port allows it)`);
  }
  const pool = new BrowserPool({
    executablePath,
    recycleAfter: 1_000,
    spare: false,
    contextOptions: { userAgent: SCANNER_USER_AGENT, serviceWorkers: "block", viewport: { width: 1280, height: 800 } },
  });
  const started = performance.now();
  try {
    onProgress("starting Chromium");
    await pool.warm();
    onProgress("scanning");
    const { outcome } = await scanPage(
      {
        pool,
        // the render's own requests are vetted as the worker vets them (no egress proxy here:
        // the machine is the caller's own)
        policy: {
          allowlist,
          resolve: resolveAll,
          resolveSubresource: resolveAll,
          ports,
          userAgent: SCANNER_USER_AGENT,
        },
        limits: captureLimitsOf(config),
      },
      { url, mode },
    );
    return {
      id: null,
      url,
      finalUrl: outcome.finalUrl,
      mode,
      status: "completed",
      grade: outcome.grade,
      scores: outcome.scores,
      checks: outcome.checks,
      durationMs: Math.round(performance.now() - started),
      error: null,
    };
  } catch (error) {
    if (error instanceof TargetError) {
      return failedReport(
        url,
        mode,
        { code: "upstream_failure", message: error.message },
        Math.round(performance.now() - started),
      );
    }
    throw error;
  } finally {
    await pool.close();
  }
};
