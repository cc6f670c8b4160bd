/**
 * Accounts for a self-hosted deployment: create users with a plan and a role, change them,
 * give a user a password or a reset link, invite someone to sign up, issue a JWT for the key
 * endpoints, or create an API key directly.
 *
 *   pnpm -s accounts create-user  --email a@example.com [--plan free|starter|pro|agency] [--role member|operator]
 *   pnpm -s accounts set-plan     --email a@example.com --plan pro
 *   pnpm -s accounts set-role     --email a@example.com --role operator
 *   pnpm -s accounts set-password --email a@example.com      (the password is read from standard input)
 *   pnpm -s accounts reset-link   --email a@example.com [--ttl 1h]
 *   pnpm -s accounts invite       --email a@example.com [--plan ...] [--role ...] [--ttl 7d]
 *   pnpm -s accounts token        --email a@example.com [--ttl 1h]
 *   pnpm -s accounts create-key   --email a@example.com [--name ci] [--form A|B]
 *
 * Reads DATABASE_URL; PUBLIC_URL (where links point); for `token` the gateway's JWT settings
 * (JWT_ALGORITHM, JWT_SECRET, JWT_ISSUER, JWT_AUDIENCE, or outside production the development
 * key under DATA_DIR) plus JWT_PRIVATE_KEY (PEM) when the algorithm is RS256.
 */
import { parseArgs } from "node:util";
import { Plan, ResponseForm, Role } from "@scan/contract";
import { createDb } from "@scan/db";
import { parseConfig } from "@scan/platform";
import { createSessionService } from "./access/session-service";
import {
  createAccountService,
  createOneTimeLinks,
  createPasswordCheck,
  createUserService,
  issueUserToken,
  jwtKeysFrom,
  ttlSeconds,
} from "./auth";
import { AccountsConfig as Config } from "./config";
import { createKeyService, personalKeyOwner } from "./keys";

const COMMANDS = [
  "create-user",
  "set-plan",
  "set-role",
  "set-password",
  "reset-link",
  "invite",
  "token",
  "create-key",
] as const;

const USAGE = `usage:
  accounts create-user  --email <email> [--plan free|starter|pro|agency] [--role member|operator]
  accounts set-plan     --email <email> --plan <plan>
  accounts set-role     --email <email> --role <role>
  accounts set-password --email <email>          (reads the password from standard input)
  accounts reset-link   --email <email> [--ttl 1h]
  accounts invite       --email <email> [--plan <plan>] [--role <role>] [--ttl 7d]
  accounts token        --email <email> [--ttl 1h]      (s, m, h or d)
  accounts create-key   --email <email> [--name <name>] [--form A|B]`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

/** The first line of standard input: a password never goes on the command line, where `ps` shows it. */
const readPassword = async (): Promise<string> => {
  if (process.stdin.isTTY)
    process.stderr.write("new password (the line is shown as you type it; pipe it in to avoid that): ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(10)) break;
  }
  return (Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "").trimEnd();
};

const main = async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      plan: { type: "string" },
      role: { type: "string" },
      ttl: { type: "string" },
      name: { type: "string" },
      form: { type: "string" },
    },
  });
  const [given] = positionals;
  const command = COMMANDS.find((name) => name === given) ?? fail(USAGE);
  const email = values.email ?? fail(`--email is required\n${USAGE}`);
  const plan = values.plan === undefined ? undefined : Plan.safeParse(values.plan);
  if (plan && !plan.success) fail(`--plan must be one of ${Plan.options.join(", ")}`);
  const role = values.role === undefined ? undefined : Role.safeParse(values.role);
  if (role && !role.success) fail(`--role must be one of ${Role.options.join(", ")}`);
  const lifetime = (fallback: string) =>
    ttlSeconds(values.ttl ?? fallback) ?? fail("--ttl must look like 90s, 30m, 1h or 7d");

  const config = parseConfig(Config, process.env, "accounts");
  const db = createDb(config.DATABASE_URL, { poolSize: 1 });
  try {
    const users = createUserService(db);
    const links = createOneTimeLinks({ db, publicUrl: config.PUBLIC_URL });
    const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    const shown = (user: { id: string; email: string; plan: string; role: string }) => ({
      id: user.id,
      email: user.email,
      plan: user.plan,
      role: user.role,
    });
    switch (command) {
      case "create-user":
        print(shown(await users.create(email, plan?.data ?? "free", role?.data ?? "member")));
        break;
      case "set-plan":
        print(shown(await users.setPlan(email, plan?.data ?? fail("--plan is required"))));
        break;
      case "set-role":
        print(shown(await users.setRole(email, role?.data ?? fail("--role is required"))));
        break;
      case "set-password": {
        const user = await users.byEmail(email);
        const sessions = createSessionService({ db, lifetimes: { idleMs: 1, maxMs: 1 } });
        const accounts = createAccountService({
          db,
          sessions,
          signUpMode: "invite",
          checkPassword: await createPasswordCheck(),
        });
        await accounts.setPassword(user.id, await readPassword());
        process.stderr.write(`password set for ${user.email}; their sessions have ended\n`);
        break;
      }
      case "reset-link": {
        const user = await users.byEmail(email);
        const link = await links.passwordReset(user, lifetime("1h"));
        // the link alone on stdout, to hand on; mail it yourself or through a hook (docs/authentication.md)
        process.stdout.write(`${link.url}\n`);
        process.stderr.write(`a password reset link for ${user.email}, valid until ${link.expiresAt.toISOString()}\n`);
        break;
      }
      case "invite": {
        const invitation = await links.invite(email, {
          plan: plan?.data ?? "free",
          role: role?.data ?? "member",
          lifetimeS: lifetime("7d"),
        });
        process.stdout.write(`${invitation.url}\n`);
        process.stderr.write(
          `an invitation for ${invitation.email}, valid until ${invitation.expiresAt.toISOString()}\n`,
        );
        break;
      }
      case "token": {
        const seconds = lifetime("1h");
        const user = await users.byEmail(email);
        const signer = jwtKeysFrom(config).signer ?? fail("JWT_PRIVATE_KEY is not set");
        // the token alone on stdout, for TOKEN=$(pnpm -s accounts token --email ...)
        process.stdout.write(`${issueUserToken(signer, user, seconds)}\n`);
        break;
      }
      case "create-key": {
        const form = values.form === undefined ? null : ResponseForm.safeParse(values.form.toUpperCase());
        if (form && !form.success) fail("--form must be A or B");
        const user = await users.byEmail(email);
        // the operator's own tool: the per-user cap on active keys is for the API
        const keys = createKeyService({ db, maxKeysPerUser: Number.MAX_SAFE_INTEGER });
        print(
          await keys.create(await personalKeyOwner(db, user), { name: values.name, default_form: form?.data ?? null }),
        );
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
