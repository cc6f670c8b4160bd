import { probeAll } from "./readiness";

describe("probeAll", () => {
  it("is ready when every probe answers", async () => {
    const readiness = await probeAll({ postgres: async () => 1, redis: async () => "PONG" }, 100);
    expect(readiness.ok).toBe(true);
    expect(readiness.checks.postgres).toEqual({ ok: true, ms: expect.any(Number) });
  });

  it("bounds a hanging probe by the timeout and names it, without its error text", async () => {
    const failures: string[] = [];
    // a probe that never settles still lets probeAll answer: it is reported as timed out
    const readiness = await probeAll(
      {
        postgres: () => new Promise(() => undefined),
        redis: async () => {
          throw new Error("connect ECONNREFUSED 10.1.2.3:6379 user=admin");
        },
        browser: async () => false,
        other: async () => true,
      },
      50,
      (name) => failures.push(name),
    );
    expect(readiness.ok).toBe(false);
    expect(readiness.checks.postgres).toMatchObject({ ok: false, error: "timeout" });
    expect(readiness.checks.redis).toMatchObject({ ok: false, error: "unreachable" });
    expect(readiness.checks.browser).toMatchObject({ ok: false, error: "not ready" });
    expect(readiness.checks.other).toMatchObject({ ok: true });
    expect(JSON.stringify(readiness)).not.toContain("10.1.2.3");
    expect(failures.sort()).toEqual(["browser", "postgres", "redis"]);
  });
});
