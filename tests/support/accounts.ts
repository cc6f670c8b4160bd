import { randomBytes } from "node:crypto";
import type { Plan } from "@scan/contract";
import type { Db, User } from "@scan/db";
import type { Gateway } from "@scan/gateway";
import { createKeyService, createUserService, issueUserToken, personalKeyOwner } from "@scan/gateway";
import { hashApiKey } from "@scan/platform";

/** The HS256 secret test stacks verify key-endpoint tokens with. */
export const TEST_JWT_SECRET = "test-only-jwt-secret-0123456789abcdef";

export type TestAccount = { user: User; key: string; keyId: string; token: string };

export const tokenFor = (user: { id: string; email: string }, lifetimeSeconds = 600): string =>
  issueUserToken({ algorithm: "HS256", secret: TEST_JWT_SECRET }, user, lifetimeSeconds);

/** A user with one API key and a JWT, made through the product's own services. */
export const createAccount = async (db: Db, plan: Plan = "free"): Promise<TestAccount> => {
  const user = await createUserService(db).create(`user-${randomBytes(6).toString("hex")}@example.com`, plan);
  const created = await createKeyService({ db, maxKeysPerUser: 1_000 }).create(await personalKeyOwner(db, user), {});
  return { user, key: created.key, keyId: created.id, token: tokenFor(user) };
};

/**
 * Waits until a gateway no longer holds `key` in its key cache: a change made outside the
 * gateway reaches it through Postgres NOTIFY, within milliseconds on an idle machine. Gives up
 * after `withinMs`, which leaves a loaded machine its time.
 */
export const untilKeyDropped = async (gateway: Gateway, key: string, withinMs = 30_000): Promise<void> => {
  for (let waited = 0; gateway.keyCache.get(hashApiKey(key)) && waited < withinMs; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
