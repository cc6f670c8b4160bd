import type { Db } from "@scan/db";
import { isConflict, TRANSACTION_ATTEMPTS, transaction } from "./transaction";

/** How Prisma with the pg driver adapter reports a raw query's failure (P2010 with the SQLSTATE). */
const rawFailure = (state: string, message: string) =>
  Object.assign(new Error(`Raw query failed. Code: \`${state}\`. Message: \`${message}\``), {
    code: "P2010",
    meta: {
      driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: state, originalMessage: message } },
    },
  });
const deadlock = () => rawFailure("40P01", "deadlock detected");
const serialization = () => rawFailure("40001", "could not serialize access due to concurrent update");
const writeConflict = () =>
  Object.assign(new Error("Transaction failed due to a write conflict or a deadlock"), { code: "P2034" });
const uniqueViolation = () =>
  Object.assign(new Error("Unique constraint failed on the fields: (`url`)"), {
    code: "P2002",
    meta: { target: ["url"] },
  });

/** A client whose transactions fail with `failures` in turn, then run the work; it counts the runs. */
const scripted = (failures: Array<() => Error>) => {
  const runs = { count: 0 };
  const tx = { marker: "tx" };
  const db = {
    $transaction: async (work: (client: unknown) => Promise<unknown>) => {
      runs.count++;
      const failure = failures.shift();
      if (failure) throw failure();
      return work(tx);
    },
  } as unknown as Db;
  return { db, runs, tx };
};

const noPause = { pause: async () => {} };

describe("transaction", () => {
  it("runs the work once in a transaction and answers what it answers", async () => {
    const { db, runs, tx } = scripted([]);
    await expect(transaction(db, async (client) => ({ same: client === (tx as unknown) }), noPause)).resolves.toEqual({
      same: true,
    });
    expect(runs.count).toBe(1);
  });

  it.each([
    ["a deadlock (40P01)", deadlock],
    ["a serialization failure (40001)", serialization],
    ["Prisma's write conflict (P2034)", writeConflict],
  ])("runs the transaction again after %s", async (_, failure) => {
    const { db, runs } = scripted([failure, failure]);
    await expect(transaction(db, async () => "stored", noPause)).resolves.toBe("stored");
    expect(runs.count).toBe(3);
  });

  it("does not run again after any other error", async () => {
    const { db, runs } = scripted([uniqueViolation]);
    await expect(transaction(db, async () => "stored", noPause)).rejects.toMatchObject({ code: "P2002" });
    expect(runs.count).toBe(1);
  });

  it("does not run again when the work itself throws", async () => {
    const { db, runs } = scripted([]);
    await expect(
      transaction(
        db,
        async () => {
          throw new Error("site not found");
        },
        noPause,
      ),
    ).rejects.toThrow("site not found");
    expect(runs.count).toBe(1);
  });

  it("gives up after a bounded number of runs, throwing the conflict", async () => {
    const { db, runs } = scripted(Array.from({ length: 20 }, () => deadlock));
    await expect(transaction(db, async () => "stored", noPause)).rejects.toMatchObject({ code: "P2010" });
    expect(runs.count).toBe(TRANSACTION_ATTEMPTS);

    const three = scripted(Array.from({ length: 20 }, () => deadlock));
    await expect(transaction(three.db, async () => "stored", { ...noPause, attempts: 3 })).rejects.toThrow(/40P01/);
    expect(three.runs.count).toBe(3);
  });

  it("pauses longer before each run again by default", async () => {
    const { db } = scripted([deadlock, deadlock]);
    const pauses: number[] = [];
    await transaction(db, async () => "stored", {
      pause: async (attempt) => {
        pauses.push(attempt);
      },
    });
    expect(pauses).toEqual([1, 2]);
    // the default pause is real but short: two conflicts cost well under a second
    const timed = scripted([deadlock, deadlock]);
    const started = Date.now();
    await transaction(timed.db, async () => "stored");
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("isConflict", () => {
  it("knows a deadlock and a serialization failure however Prisma reports them", () => {
    expect(isConflict(deadlock())).toBe(true);
    expect(isConflict(serialization())).toBe(true);
    expect(isConflict(writeConflict())).toBe(true);
    expect(isConflict(new Error("ERROR: deadlock detected"))).toBe(true);
  });

  it("knows nothing else for one", () => {
    expect(isConflict(uniqueViolation())).toBe(false);
    expect(isConflict(rawFailure("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isConflict(new Error("connection refused"))).toBe(false);
    expect(isConflict(null)).toBe(false);
    expect(isConflict("40P01")).toBe(false);
  });
});
