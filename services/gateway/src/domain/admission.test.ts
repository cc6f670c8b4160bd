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

  it("follows the service time as it changes", async () => {
    const admission = createAdmission({ load: fixedLoad({ ahead: 4, workers: 1 }).load, concurrencyPerWorker: 2 });
    admission.record("full", 1_000);
    await expect(admission.decide("full", 3_000)).resolves.toEqual({ admit: true });
    for (let i = 0; i < 20; i++) admission.record("full", 5_000);
    expect((await admission.decide("full", 3_000)).admit).toBe(false);
  });
});
