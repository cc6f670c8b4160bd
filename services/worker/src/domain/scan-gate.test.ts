import { createScanGate, type GiveWayOutcome, type ScanQueueLoad } from "./scan-gate";

/** A clock that moves only when a step pauses: each pause moves it on by the pause asked. */
const fakeClock = () => {
  let t = 0;
  const pauses: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      pauses.push(ms);
      t += ms;
    },
    pauses,
  };
};

/** A pause that never ends by itself: only a scan settling can let a step go on. */
const never = () => new Promise<void>(() => {});

const idle: ScanQueueLoad = { waiting: 0, active: 0 };
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the scan gate a visibility sample's steps pass", () => {
  it("holds a step while a scan of this process is in progress, and lets it go when the scan ends", async () => {
    const events: string[] = [];
    const waited: Array<[string, GiveWayOutcome]> = [];
    const gate = createScanGate({
      // Redis counts this process's running scan too: it is not counted twice
      readLoad: async () => ({ waiting: 0, active: gate.active }),
      cacheMs: 100,
      maxWaitMs: 2_000,
      sleep: never,
      onWaited: (step, outcome) => waited.push([step, outcome]),
    });
    let endScan = () => {};
    const scan = gate.during(
      () =>
        new Promise<void>((resolve) => {
          events.push("scan started");
          endScan = () => {
            events.push("scan ended");
            resolve();
          };
        }),
    );
    const step = gate.giveWay("store").then(() => events.push("sample stored"));
    await flush();
    await flush();
    expect(events).toEqual(["scan started"]);
    expect(gate.active).toBe(1);

    endScan();
    await Promise.all([scan, step]);
    expect(events).toEqual(["scan started", "scan ended", "sample stored"]);
    expect(gate.active).toBe(0);
    expect(waited).toEqual([["store", "clear"]]);
  });

  it("lets a step go after the bound when the scans never end, so a run always ends", async () => {
    const clock = fakeClock();
    const events: string[] = [];
    const waited: Array<[string, GiveWayOutcome, number]> = [];
    const gate = createScanGate({
      readLoad: async () => idle,
      cacheMs: 150,
      maxWaitMs: 1_000,
      now: clock.now,
      sleep: clock.sleep,
      onWaited: (step, outcome, ms) => waited.push([step, outcome, ms]),
    });
    void gate.during(() => {
      events.push("scan started");
      return never();
    });
    await gate.giveWay("claim");
    events.push("sample claimed");

    expect(events).toEqual(["scan started", "sample claimed"]);
    expect(gate.active).toBe(1);
    // it looked again every 150 ms of the clock, and the last pause was cut to the bound
    expect(clock.pauses).toEqual([150, 150, 150, 150, 150, 150, 100]);
    expect(waited).toEqual([["claim", "bound", 1_000]]);
  });

  it("gives way to scans waiting on the queue or running in another process, read once per cacheMs", async () => {
    const clock = fakeClock();
    const loads: ScanQueueLoad[] = [{ waiting: 2, active: 0 }, { waiting: 0, active: 1 }, idle];
    const reads: number[] = [];
    const waited: Array<[string, GiveWayOutcome, number]> = [];
    const gate = createScanGate({
      readLoad: async () => {
        reads.push(clock.now());
        return loads.shift() ?? idle;
      },
      cacheMs: 100,
      maxWaitMs: 2_000,
      now: clock.now,
      sleep: clock.sleep,
      onWaited: (step, outcome, ms) => waited.push([step, outcome, ms]),
    });
    // three steps asking at once share each read: scans waiting, then one running elsewhere, then none
    await Promise.all([gate.giveWay("queue"), gate.giveWay("queue"), gate.giveWay("queue")]);
    expect(reads).toHaveLength(3);
    expect(loads).toEqual([]);
    // a step asking within cacheMs of the last read is answered from it
    const before = reads.length;
    await gate.giveWay("store");
    expect(reads.length).toBe(before);
    expect(waited.every(([, outcome]) => outcome === "clear")).toBe(true);
    expect(waited.map(([step]) => step)).toEqual(["queue", "queue", "queue"]);
  });

  it("goes on at once when nothing waits, when the queue cannot be read, when stopping, or when the bound is 0", async () => {
    const errors: unknown[] = [];
    const waited: string[] = [];
    const quiet = createScanGate({
      readLoad: async () => {
        throw new Error("redis away");
      },
      cacheMs: 100,
      maxWaitMs: 2_000,
      sleep: never,
      onReadError: (error) => errors.push(error),
      onWaited: (step) => waited.push(step),
    });
    await quiet.giveWay("claim");
    expect(errors).toHaveLength(1);

    let read = 0;
    const off = createScanGate({
      readLoad: async () => {
        read += 1;
        return { waiting: 5, active: 5 };
      },
      cacheMs: 100,
      maxWaitMs: 0,
      sleep: never,
      onWaited: (step) => waited.push(step),
    });
    void off.during(never);
    await off.giveWay("store");
    expect(read).toBe(0);

    const stopping = new AbortController();
    stopping.abort();
    const stopped = createScanGate({
      readLoad: async () => ({ waiting: 5, active: 5 }),
      cacheMs: 100,
      maxWaitMs: 2_000,
      sleep: never,
      signal: stopping.signal,
    });
    void stopped.during(never);
    await stopped.giveWay("store");
    expect(waited).toEqual([]);
  });
});
