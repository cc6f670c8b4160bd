import { turns } from "./turns";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

describe("turns", () => {
  test("runs one task at a time in the order they came, the next starting as one ends", async () => {
    const turn = turns(1);
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    let active = 0;
    let most = 0;
    const tasks = gates.map((gate, index) =>
      turn(async () => {
        started.push(index);
        active += 1;
        most = Math.max(most, active);
        await gate.promise;
        active -= 1;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0]);
    // the last one ready first still waits for its turn
    gates[2]?.resolve();
    gates[1]?.resolve();
    gates[0]?.resolve();
    await expect(Promise.all(tasks)).resolves.toEqual([0, 1, 2]);
    expect(started).toEqual([0, 1, 2]);
    expect(most).toBe(1);
  });

  test("a task that fails passes its turn on", async () => {
    const turn = turns(1);
    const failed = turn(async () => {
      throw new Error("render failed");
    });
    const next = turn(async () => "rendered");
    await expect(failed).rejects.toThrow("render failed");
    await expect(next).resolves.toBe("rendered");
  });

  test("0 runs every task at once", async () => {
    const turn = turns(0);
    const gate = deferred();
    const started: number[] = [];
    const tasks = [0, 1, 2].map((index) =>
      turn(async () => {
        started.push(index);
        await gate.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gate.resolve();
    await Promise.all(tasks);
  });
});
