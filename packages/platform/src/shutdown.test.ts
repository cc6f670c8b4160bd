import pino from "pino";
import { onShutdownSignals } from "./shutdown";

const log = pino({ level: "silent" });

const exitCode = () => {
  let resolve: (code: number) => void = () => {};
  const code = new Promise<number>((r) => {
    resolve = r;
  });
  return { code, exit: (value: number) => resolve(value) };
};

describe("onShutdownSignals", () => {
  it("exits 0 once close has finished, and runs close once however often it is asked", async () => {
    const { code, exit } = exitCode();
    let closes = 0;
    const stop = onShutdownSignals({ log, timeoutMs: 1_000, signals: [], exit, close: async () => void closes++ });
    await Promise.all([stop("SIGTERM"), stop("SIGINT")]);
    expect(await code).toBe(0);
    expect(closes).toBe(1);
  });

  it("exits 1 when close fails", async () => {
    const { code, exit } = exitCode();
    const stop = onShutdownSignals({
      log,
      timeoutMs: 1_000,
      signals: [],
      exit,
      close: () => Promise.reject(new Error("redis went away")),
    });
    await stop("SIGTERM");
    expect(await code).toBe(1);
  });

  it("exits 1 when close outlives its bound", async () => {
    const { code, exit } = exitCode();
    const stop = onShutdownSignals({
      log,
      timeoutMs: 20,
      graceMs: 10,
      signals: [],
      exit,
      close: () => new Promise(() => {}),
    });
    void stop("SIGTERM");
    expect(await code).toBe(1);
  });
});
