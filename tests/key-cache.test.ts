import { createKeyService, createUserService, personalKeyOwner } from "@scan/gateway";
import { hashApiKey } from "@scan/platform";
import { createAccount } from "./support/accounts";
import { type AccountsApi, body, startAccountsApi } from "./support/accounts-api";
import { stopContainers } from "./support/services";

/**
 * The gateway's in-process API key cache: keys are read from Postgres once, and every change
 * that makes a cached key wrong reaches the cache through Postgres NOTIFY, whoever makes it.
 */

afterAll(() => stopContainers());

/**
 * Polls `probe` until it answers true. Gives up after 30 s: long enough for a loaded machine,
 * and far below the cache's TTL here, so only a notification can have dropped a key by then.
 */
const GIVE_UP_MS = 30_000;
const KEY_CACHE_TTL_MS = 3_600_000;
const until = async (probe: () => Promise<boolean>): Promise<void> => {
  const started = performance.now();
  for (;;) {
    if (await probe()) return;
    if (performance.now() - started > GIVE_UP_MS) throw new Error(`still not so after ${GIVE_UP_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe("API key cache", () => {
  let ctx: AccountsApi;
  const scans = (key: string) => ctx.call("/api/v1/scans", { headers: { "x-api-key": key } });

  beforeAll(async () => {
    ctx = await startAccountsApi({
      RATE_LIMIT_PRO: "1000",
      RATE_LIMIT_AGENCY: "5000",
      KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
    });
    await until(async () => ctx.stack.gateway.keyCache.isLive());
  }, 300_000);

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

  it("hears a revocation made outside the gateway, long before the cache's TTL", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).status).toBe(200);
    // another process's writer: the accounts command, another gateway
    await createKeyService({ db: ctx.stack.db, maxKeysPerUser: 10 }).revoke(
      await personalKeyOwner(ctx.stack.db, account.user),
      account.keyId,
    );
    await until(async () => ctx.stack.gateway.keyCache.get(hashApiKey(account.key)) === undefined);
    expect((await scans(account.key)).status).toBe(401);
  });

  it("applies a plan change made outside the gateway to the next request's limit", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).headers.get("x-ratelimit-limit")).toBe("1000");
    await createUserService(ctx.stack.db).setPlan(account.user.email, "agency");
    await until(async () => ctx.stack.gateway.keyCache.get(hashApiKey(account.key)) === undefined);
    expect((await scans(account.key)).headers.get("x-ratelimit-limit")).toBe("5000");
  });

  it("is bypassed while the change feed is lost, and used again once it is back", async () => {
    const account = await createAccount(ctx.stack.db, "pro");
    expect((await scans(account.key)).status).toBe(200);
    const cache = ctx.stack.gateway.keyCache;
    await ctx.stack.db.$queryRaw`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway credential feed'`;
    await until(async () => !cache.isLive());
    expect(cache.size()).toBe(0);
    // keys still work, read from Postgres
    expect((await scans(account.key)).status).toBe(200);
    await until(async () => cache.isLive());
    expect((await scans(account.key)).status).toBe(200);
    expect(cache.get(hashApiKey(account.key))?.id).toBe(account.keyId);
  });
});
