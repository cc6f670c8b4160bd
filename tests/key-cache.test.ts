import { createKeyService, createUserService } from "@scan/gateway";
import { hashApiKey } from "@scan/platform";
import { createAccount } from "./support/accounts";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { stopContainers } from "./support/services";

/**
 * The gateway's in-process API key cache: keys are read from Postgres once, and every change
 * that makes a cached key wrong reaches the cache through Postgres NOTIFY, whoever makes it.
 */

afterAll(() => stopContainers());

/** Polls `probe` until it answers true; the milliseconds it took, or a failure after `withinMs`. */
const within = async (withinMs: number, probe: () => Promise<boolean>): Promise<number> => {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe("API key cache", () => {
  let ctx: AccountsApi;
  const scans = (key: string) => ctx.call("/api/v1/scans", { headers: { "x-api-key": key } });

  beforeAll(async () => {
    ctx = await startAccountsApi({ RATE_LIMIT_PRO: "1000", RATE_LIMIT_AGENCY: "5000" });
    await within(5_000, async () => ctx.stack.gateway.keyCache.isLive());
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
  });

  it("keeps a key after its first use", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    const cache = ctx.stack.gateway.keyCache;
    expect(cache.get(hashApiKey(account.key))).toBeUndefined();
    expect((await scans(account.key)).status).toBe(200);
    expect(cache.get(hashApiKey(account.key))).toEqual(expect.objectContaining({ id: account.keyId, plan: "pro" }));
    expect((await scans(account.key)).status).toBe(200);
  });

  it("refuses a cached key revoked through the API at once", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).status).toBe(200);
    const revoked = await ctx.call(`/api/v1/keys/${account.keyId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(revoked.status).toBe(200);
    const refused = await scans(account.key);
    expect(refused.status).toBe(401);
    expect(body(refused).error.message).toMatch(/revoked/);
  });

  it("hears a revocation made outside the gateway within milliseconds", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).status).toBe(200);
    // another process's writer: the accounts command, another gateway
    await createKeyService({ db: ctx.stack.db, maxKeysPerUser: 10 }).revoke(account.user, account.keyId);
    const ms = await within(1_000, async () => ctx.stack.gateway.keyCache.get(hashApiKey(account.key)) === undefined);
    expect(ms).toBeLessThan(1_000);
    expect((await scans(account.key)).status).toBe(401);
  });

  it("applies a plan change made outside the gateway to the next request's limit", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).headers.get("x-ratelimit-limit")).toBe("1000");
    await createUserService(ctx.stack.db).setPlan(account.user.email, "agency");
    await within(1_000, async () => ctx.stack.gateway.keyCache.get(hashApiKey(account.key)) === undefined);
    expect((await scans(account.key)).headers.get("x-ratelimit-limit")).toBe("5000");
  });

  it("is bypassed while the change feed is lost, and used again once it is back", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).status).toBe(200);
    const cache = ctx.stack.gateway.keyCache;
    await ctx.stack.db.$queryRaw`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway credential feed'`;
    await within(2_000, async () => !cache.isLive());
    expect(cache.size()).toBe(0);
    // keys still work, read from Postgres
    expect((await scans(account.key)).status).toBe(200);
    await within(10_000, async () => cache.isLive());
    expect((await scans(account.key)).status).toBe(200);
    expect(cache.get(hashApiKey(account.key))?.id).toBe(account.keyId);
  });
});
