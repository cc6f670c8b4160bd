import { renderFailureOf, type ScanMode } from "@scan/contract";
import { vetTarget } from "@scan/platform";
import { failedPage, type PageReport } from "@scan/reports";
import { captureLimitsOf, createScanner, resolveAll, type Scanner, TargetError } from "@scan/scanner";
import { CliError } from "./api-client";
import type { CliConfig } from "./config";

/**
 * Scans on this machine, with the service's own scanner and a Chromium of its own, when no
 * API is configured. Nothing is stored. The address policy is the service's: private targets
 * need SCAN_ALLOWLIST.
 */
export const scanInProcess = async (
  config: CliConfig,
  { url, mode }: { url: string; mode: ScanMode },
  onProgress: (status: string) => void,
): Promise<PageReport> => {
  const limits = captureLimitsOf(config);
  let scanner: Scanner;
  try {
    scanner = createScanner({
      chromiumPath: config.CHROMIUM_PATH,
      allowlist: config.SCAN_ALLOWLIST,
      ports: config.SCAN_PORTS,
      limits,
      // the render's own requests are vetted in the page (no egress proxy: the machine is the caller's own)
      egress: false,
      subresourceDnsTimeoutMs: limits.scanTimeoutMs,
      recycleAfter: 1_000,
      spare: false,
      webmcp: config.BROWSER_WEBMCP === "on",
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}, or set SCAN_API_URL to scan through an API`);
  }
  const started = performance.now();
  try {
    const verdict = await vetTarget(new URL(url), {
      allowlist: scanner.allowlist,
      resolve: resolveAll,
      ports: scanner.ports,
    });
    if (!verdict.allowed && !verdict.reason.startsWith("unresolvable")) {
      throw new CliError(`${url} is not scannable: ${verdict.reason} (SCAN_ALLOWLIST=host:port allows it)`);
    }
    onProgress("starting Chromium");
    await scanner.pool.warm();
    onProgress("scanning");
    const { outcome } = await scanner.scan({ url, mode });
    return {
      id: null,
      url,
      finalUrl: outcome.finalUrl,
      mode,
      status: "completed",
      grade: outcome.grade,
      scores: outcome.scores,
      checks: outcome.checks,
      scannedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - started),
      error: null,
      renderFailure: renderFailureOf(outcome.renderFailure),
    };
  } catch (error) {
    if (error instanceof TargetError) {
      return {
        ...failedPage(
          url,
          mode,
          { code: "upstream_failure", message: error.message },
          Math.round(performance.now() - started),
        ),
        scannedAt: new Date().toISOString(),
      };
    }
    throw error;
  } finally {
    await scanner.close();
  }
};
