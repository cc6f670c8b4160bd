import { createCachingResolver } from "./dns-cache";

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("caching resolver", () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000;
  });

  it("asks once for a name while the answer is fresh, and again after its TTL", async () => {
    const asked: string[] = [];
    const resolver = createCachingResolver(
      async (host) => {
        asked.push(host);
        return ["93.184.215.14"];
      },
      { ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 10, now },
    )(1_000);
    await expect(resolver("Example.com")).resolves.toEqual(["93.184.215.14"]);
    await expect(resolver("example.com")).resolves.toEqual(["93.184.215.14"]);
    expect(asked).toEqual(["example.com"]);
    clock += 60_001;
    await resolver("example.com");
    expect(asked).toEqual(["example.com", "example.com"]);
  });

  it("remembers a failure for the shorter negative TTL", async () => {
    let calls = 0;
    const resolver = createCachingResolver(
      async () => {
        calls += 1;
        throw new Error("ENOTFOUND");
      },
      { ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 10, now },
    )(1_000);
    await expect(resolver("gone.example")).rejects.toThrow("ENOTFOUND");
    await expect(resolver("gone.example")).rejects.toThrow("ENOTFOUND");
    expect(calls).toBe(1);
    clock += 5_001;
    await expect(resolver("gone.example")).rejects.toThrow("ENOTFOUND");
    expect(calls).toBe(2);
  });

  it("bounds each caller's wait but shares the slow lookup, so it is asked once", async () => {
    let calls = 0;
    let answer: (addresses: string[]) => void = () => undefined;
    const cache = createCachingResolver(
      () => {
        calls += 1;
        return new Promise<string[]>((resolve) => {
          answer = resolve;
        });
      },
      { ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 10, now },
    );
    await expect(cache(20)("slow.example")).rejects.toThrow("did not resolve in 20 ms");
    const patient = cache(5_000)("slow.example");
    answer(["93.184.215.14"]);
    await expect(patient).resolves.toEqual(["93.184.215.14"]);
    await settle();
    await expect(cache(20)("slow.example")).resolves.toEqual(["93.184.215.14"]);
    expect(calls).toBe(1);
  });

  it("keeps at most maxEntries names", async () => {
    const asked: string[] = [];
    const resolver = createCachingResolver(
      async (host) => {
        asked.push(host);
        return ["93.184.215.14"];
      },
      { ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 2, now },
    )(1_000);
    await resolver("a.example");
    await resolver("b.example");
    await resolver("c.example");
    await resolver("a.example");
    expect(asked).toEqual(["a.example", "b.example", "c.example", "a.example"]);
  });
});
