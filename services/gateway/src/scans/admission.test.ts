import { createAdmission, type QueueLoad } from "./admission";

const fixedLoad = (load: QueueLoad) => {
  let reads = 0;
  return {
    load: async () => {
      reads += 1;
      return load;
    },
    reads: () => reads,
  };
};

describe("admission control", () => {
  it("admits while it has timed no scan or sees no worker", async () => {
    const none = createAdmission({ load: fixedLoad({ ahead: 1_000, workers: 0 }).load, concurrencyPerWorker: 1 });
    none.record("quick", 500);
    await expect(none.decide("quick", 1_000)).resolves.toEqual({ admit: true });
    const untimed = createAdmission({ load: fixedLoad({ ahead: 1_000, workers: 2 }).load, concurrencyPerWorker: 1 });
    await expect(untimed.decide("full", 1_000)).resolves.toEqual({ admit: true });
  });

  it("refuses a scan that cannot finish within the budget, with the wait beyond it", async () => {
    // 20 ahead over 2 slots at 1 s each, then 1 s of its own: 11 s; once one more is admitted, 21 ahead: 12 s
    const admission = createAdmission({ load: fixedLoad({ ahead: 20, workers: 2 }).load, concurrencyPerWorker: 1 });
    admission.record("quick", 1_000);
    await expect(admission.decide("quick", 30_000)).resolves.toEqual({ admit: true });
    await expect(admission.decide("quick", 5_000)).resolves.toEqual({
      admit: false,
      predictedMs: 12_000,
      retryAfterS: 7,
    });
  });

  it("counts the scans it admitted since its last look at the queue", async () => {
    let clock = 0;
    const queue = fixedLoad({ ahead: 0, workers: 1 });
    const admission = createAdmission({
      load: queue.load,
      concurrencyPerWorker: 1,
      refreshMs: 1_000,
      now: () => clock,
    });
    admission.record("quick", 1_000);
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push((await admission.decide("quick", 4_000)).admit);
    // 0, 1, 2, 3 ahead fit in 4 s; the fifth and sixth would wait 5 s and more
    expect(verdicts).toEqual([true, true, true, true, false, false]);
    expect(queue.reads()).toBe(1);
    clock += 1_000;
    await admission.decide("quick", 4_000);
    expect(queue.reads()).toBe(2);
  });

  it("answers from a recent reading while it reads the queue again, and waits for one too old", async () => {
    let clock = 0;
    let ahead = 0;
    let reads = 0;
    const pending: Array<() => void> = [];
    const admission = createAdmission({
      // each read completes only when the test lets it
      load: () =>
        new Promise((resolve) => {
          reads += 1;
          const seen = ahead;
          pending.push(() => resolve({ ahead: seen, workers: 1 }));
        }),
      concurrencyPerWorker: 1,
      refreshMs: 250,
      maxStaleMs: 1_000,
      now: () => clock,
    });
    admission.record("quick", 1_000);
    const first = admission.decide("quick", 10_000);
    pending.shift()?.();
    await expect(first).resolves.toEqual({ admit: true });

    // 300 ms on the queue has grown: the decision comes from the last reading, a new one is under way
    clock = 300;
    ahead = 20;
    await expect(admission.decide("quick", 10_000)).resolves.toEqual({ admit: true });
    expect(reads).toBe(2);
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    // the fresh reading counts from now on
    expect((await admission.decide("quick", 10_000)).admit).toBe(false);

    // a reading older than maxStaleMs is not trusted: the decision waits for the next one
    clock = 2_000;
    ahead = 0;
    let settled = false;
    const late = admission.decide("quick", 10_000).then((verdict) => {
      settled = true;
      return verdict;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    pending.shift()?.();
    await expect(late).resolves.toEqual({ admit: true });
  });

  it("follows the service time as it changes", async () => {
    const admission = createAdmission({ load: fixedLoad({ ahead: 4, workers: 1 }).load, concurrencyPerWorker: 2 });
    admission.record("full", 1_000);
    await expect(admission.decide("full", 3_000)).resolves.toEqual({ admit: true });
    for (let i = 0; i < 20; i++) admission.record("full", 5_000);
    expect((await admission.decide("full", 3_000)).admit).toBe(false);
  });
});
