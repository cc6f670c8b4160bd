/**
 * Accounts for a self-hosted deployment, without a dashboard: create users with a plan, change
 * a plan, issue a JWT for the key endpoints, or create an API key directly.
 *
 *   pnpm -s accounts create-user --email a@example.com [--plan free|starter|pro|agency]
 *   pnpm -s accounts set-plan    --email a@example.com --plan pro
 *   pnpm -s accounts token       --email a@example.com [--ttl 1h]
 *   pnpm -s accounts create-key  --email a@example.com [--name ci] [--form A|B]
 *
 * Reads DATABASE_URL, and for `token` the gateway's JWT settings (JWT_ALGORITHM, JWT_SECRET,
 * JWT_ISSUER, JWT_AUDIENCE) plus JWT_PRIVATE_KEY (PEM) when the algorithm is RS256.
 */
import { parseArgs } from "node:util";
import { Plan, ResponseForm } from "@scan/contract";
import { createDb } from "@scan/db";
import { parseConfig } from "@scan/platform";
import { AccountsConfig as Config } from "./config";
import { issueUserToken, ttlSeconds } from "./domain/jwt-issuer";
import { createKeyService } from "./domain/key-service";
import { createUserService } from "./domain/user-service";

const USAGE = `usage:
  accounts create-user --email <email> [--plan free|starter|pro|agency]
  accounts set-plan    --email <email> --plan <plan>
  accounts token       --email <email> [--ttl 1h]      (s, m, h or d)
  accounts create-key  --email <email> [--name <name>] [--form A|B]`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

const main = async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      plan: { type: "string" },
      ttl: { type: "string", default: "1h" },
      name: { type: "string" },
      form: { type: "string" },
    },
  });
  const [command] = positionals;
  if (!command || !["create-user", "set-plan", "token", "create-key"].includes(command)) fail(USAGE);
  const email = values.email ?? fail(`--email is required\n${USAGE}`);
  const plan = values.plan === undefined ? undefined : Plan.safeParse(values.plan);
  if (plan && !plan.success) fail(`--plan must be one of ${Plan.options.join(", ")}`);

  const config = parseConfig(Config, process.env, "accounts");
  const db = createDb(config.DATABASE_URL, { poolSize: 1 });
  try {
    const users = createUserService(db);
    const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    const shown = (user: { id: string; email: string; plan: string }) => ({
      id: user.id,
      email: user.email,
      plan: user.plan,
    });
    switch (command) {
      case "create-user":
        print(shown(await users.create(email, plan?.data ?? "free")));
        break;
      case "set-plan":
        print(shown(await users.setPlan(email, plan?.data ?? fail("--plan is required"))));
        break;
      case "token": {
        const lifetime = ttlSeconds(values.ttl) ?? fail("--ttl must look like 90s, 30m, 1h or 7d");
        const user = await users.byEmail(email);
        const shared = { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE };
        const signer =
          config.JWT_ALGORITHM === "RS256"
            ? { algorithm: "RS256" as const, privateKey: config.JWT_PRIVATE_KEY ?? fail("JWT_PRIVATE_KEY is not set") }
            : { algorithm: "HS256" as const, secret: config.JWT_SECRET ?? fail("JWT_SECRET is not set") };
        // the token alone on stdout, for TOKEN=$(pnpm -s accounts token --email ...)
        process.stdout.write(`${issueUserToken({ ...signer, ...shared }, user, lifetime)}\n`);
        break;
      }
      case "create-key": {
        const form = values.form === undefined ? null : ResponseForm.safeParse(values.form.toUpperCase());
        if (form && !form.success) fail("--form must be A or B");
        const user = await users.byEmail(email);
        // the operator's own tool: the per-user cap on active keys is for the API
        const keys = createKeyService({ db, maxKeysPerUser: Number.MAX_SAFE_INTEGER });
        print(await keys.create(user, { name: values.name, default_form: form?.data ?? null }));
        break;
      }
    }
  } finally {
    await db.$disconnect();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
