import { randomBytes } from "node:crypto";
import type { Db, User } from "@scan/db/client";
import { issueUserToken } from "@scan/gateway/domain/jwt-issuer";
import { createKeyService } from "@scan/gateway/domain/key-service";
import { createUserService } from "@scan/gateway/domain/user-service";
import type { Plan } from "@scan/shared/account";

/** The HS256 secret test stacks verify key-endpoint tokens with. */
export const TEST_JWT_SECRET = "test-only-jwt-secret-0123456789abcdef";

export type TestAccount = { user: User; key: string; keyId: string; token: string };

export const tokenFor = (user: { id: string; email: string }, lifetimeSeconds = 600): string =>
  issueUserToken({ algorithm: "HS256", secret: TEST_JWT_SECRET }, user, lifetimeSeconds);

/** A user with one API key and a JWT, made through the product's own services. */
export const createAccount = async (db: Db, plan: Plan = "free"): Promise<TestAccount> => {
  const user = await createUserService(db).create(`user-${randomBytes(6).toString("hex")}@example.com`, plan);
  const created = await createKeyService({ db, maxKeysPerUser: 1_000 }).create(user, {});
  return { user, key: created.key, keyId: created.id, token: tokenFor(user) };
};
