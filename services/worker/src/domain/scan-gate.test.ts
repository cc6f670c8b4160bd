import { createScanGate, type GiveWayOutcome, type ScanQueueLoad } from "./scan-gate";
import { flush, heldScan, localGate, never } from "./scan-gate.fixtures";

/**
 * A clock that moves only when a step pauses: a pause ends, after the callbacks already queued
 * have run (so a read that answers wins its race against it), at the time it was asked plus its
 * length; pauses at once overlap. A pause ended early (its race decided) does not move it.
 */
const fakeClock = () => {
  let t = 0;
  const pauses: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number, signal: AbortSignal) => {
      const until = t + ms;
      await flush();
      if (signal.aborted) return;
      pauses.push(ms);
      t = Math.max(t, until);
    },
    pauses,
  };
};

const idle: ScanQueueLoad = { waiting: 0, running: [] };

describe("the scan gate a visibility sample's steps pass", () => {
  it("holds a step while a scan of this process is in progress, and lets it go when the scan ends", async () => {
    const events: string[] = [];
    const waited: Array<[string, GiveWayOutcome]> = [];
    const gate = localGate({ onWaited: (step, outcome) => waited.push([step, outcome]) });
    const scan = heldScan(gate, events);
    const step = gate.giveWay("store").then(() => events.push("sample stored"));
    await flush();
    await flush();
    expect(events).toEqual(["scan started"]);
    expect(gate.active).toBe(1);

    scan.end();
    await Promise.all([scan.done, step]);
    expect(events).toEqual(["scan started", "scan ended", "sample stored"]);
    expect(gate.active).toBe(0);
    expect(waited).toEqual([["store", "clear"]]);
  });

  it("does not count a scan of this process that just ended as running elsewhere, though Redis still lists it", async () => {
    const events: string[] = [];
    const waited: Array<[string, GiveWayOutcome]> = [];
    let reads = 0;
    // Redis moves the job to completed only after it settles: every read here still lists it running
    const gate = createScanGate({
      readLoad: async () => {
        reads += 1;
        return { waiting: 0, running: ["scan-1"] };
      },
      cacheMs: 100,
      maxWaitMs: 2_000,
      sleep: never,
      onWaited: (step, outcome) => waited.push([step, outcome]),
    });
    const scan = heldScan(gate, events, "scan-1");
    const step = gate.giveWay("store").then(() => events.push("sample stored"));
    await flush();
    scan.end();
    await scan.done;
    await flush();
    await flush();
    expect(reads).toBe(1);
    expect(events).toEqual(["scan started", "scan ended", "sample stored"]);
    await step;
    expect(waited).toEqual([["store", "clear"]]);
  });

  it("remembers only the scans of the last cacheMs, however many run with no step ever reading the queue", async () => {
    let t = 0;
    const gate = createScanGate({ readLoad: async () => idle, cacheMs: 100, maxWaitMs: 2_000, now: () => t });
    for (let scan = 0; scan < 1_000; scan += 1) {
      await gate.during(`scan-${scan}`, async () => {
        t += 30;
      });
    }
    // the last one, and the three that settled within 100 ms before it (30, 60 and 90 ms): 4 of 1,000
    expect(gate.remembered).toBe(4);
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
    void gate.during("scan-1", () => {
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

  it("lets a step go at the bound when the read of the scan queue never answers", async () => {
    const clock = fakeClock();
    const waited: Array<[string, GiveWayOutcome, number]> = [];
    const gate = createScanGate({
      readLoad: () => new Promise<ScanQueueLoad>(() => {}),
      cacheMs: 150,
      maxWaitMs: 2_000,
      now: clock.now,
      sleep: clock.sleep,
      onWaited: (step, outcome, ms) => waited.push([step, outcome, ms]),
    });
    await gate.giveWay("store");
    expect(waited).toEqual([["store", "bound", 2_000]]);
  });

  it("takes a read that does not answer within readTimeoutMs as a failed one: the step goes on", async () => {
    const clock = fakeClock();
    const errors: string[] = [];
    const waited: string[] = [];
    const gate = createScanGate({
      readLoad: () => new Promise<ScanQueueLoad>(() => {}),
      readTimeoutMs: 500,
      cacheMs: 150,
      maxWaitMs: 2_000,
      now: clock.now,
      sleep: clock.sleep,
      onWaited: (step) => waited.push(step),
      onReadError: (error) => errors.push((error as Error).message),
    });
    await gate.giveWay("store");
    expect(errors).toEqual(["the scan queue did not answer within 500 ms"]);
    expect(waited).toEqual([]);
  });

  it("gives way to scans waiting on the queue or running in another process, read once per cacheMs", async () => {
    const clock = fakeClock();
    const loads: ScanQueueLoad[] = [{ waiting: 2, running: [] }, { waiting: 0, running: ["elsewhere"] }, idle];
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

  it("lets a held step go at once when the worker stops, and clears the pause it was in", async () => {
    const events: string[] = [];
    const waited: Array<[string, GiveWayOutcome]> = [];
    const stopping = new AbortController();
    const gate = localGate({
      signal: stopping.signal,
      // a pause that never ends by itself, and says when its race was decided without it
      sleep: (_ms, signal) => {
        signal.addEventListener("abort", () => events.push("pause cleared"), { once: true });
        return never();
      },
      onWaited: (step, outcome) => waited.push([step, outcome]),
    });
    heldScan(gate, events);
    const step = gate.giveWay("store").then(() => events.push("sample stored"));
    await flush();
    expect(events).toEqual(["scan started"]);

    stopping.abort();
    await flush();
    expect(events).toEqual(["scan started", "pause cleared", "sample stored"]);
    await step;
    expect(waited).toEqual([["store", "stopping"]]);
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

    // a gate off, or stopped, does not even read the queue, which would say scans are waiting
    let read = 0;
    const busyQueue = async () => {
      read += 1;
      return { waiting: 5, running: ["elsewhere"] };
    };
    const off = createScanGate({
      readLoad: busyQueue,
      cacheMs: 100,
      maxWaitMs: 0,
      sleep: never,
      onWaited: (step) => waited.push(step),
    });
    await off.giveWay("store");

    const stopping = new AbortController();
    stopping.abort();
    const stopped = createScanGate({
      readLoad: busyQueue,
      cacheMs: 100,
      maxWaitMs: 2_000,
      sleep: never,
      signal: stopping.signal,
      onWaited: (step) => waited.push(step),
    });
    await stopped.giveWay("store");
    expect(read).toBe(0);
    expect(waited).toEqual([]);
  });
});
