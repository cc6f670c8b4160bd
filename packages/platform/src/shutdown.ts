import type { Logger } from "pino";

export type ShutdownOptions = {
  log: Logger;
  /** what the service gets to finish in-flight work and close what it owns */
  timeoutMs: number;
  /** closes the service in order: stop intake, drain within the bound, then close clients */
  close: () => Promise<void>;
  /** grace beyond timeoutMs before the process exits anyway */
  graceMs?: number;
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
};

/**
 * Stops the process once, on SIGTERM or SIGINT: runs `close`, exits 0 when it finishes and 1 when
 * it fails or outlives its bound, so an orchestrator's kill is never what ends a shutdown.
 * Returns the stop function (for tests and for a caller's own fatal errors).
 */
export const onShutdownSignals = ({
  log,
  timeoutMs,
  close,
  graceMs = 5_000,
  exit = (code) => process.exit(code),
  signals = ["SIGTERM", "SIGINT"],
}: ShutdownOptions): ((signal: string) => Promise<void>) => {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const hardStop = setTimeout(() => {
      log.error("shutdown did not finish in time; exiting");
      exit(1);
    }, timeoutMs + graceMs).unref();
    let code = 0;
    try {
      await close();
    } catch (error) {
      log.error({ err: error }, "shutdown failed");
      code = 1;
    } finally {
      clearTimeout(hardStop);
      exit(code);
    }
  };
  for (const signal of signals) process.on(signal, () => void stop(signal));
  return stop;
};
