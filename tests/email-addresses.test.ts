import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { normaliseEmail } from "@scan/contract";
import { MIGRATIONS_DIR, migrateDeploy } from "@scan/db";
import { createOneTimeLinks } from "@scan/gateway";
import { Client } from "pg";
import { body } from "./support/accounts-api";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { Browser, PASSWORD } from "./support/sessions";
import { type Stack, startStack } from "./support/stack";

/**
 * One address, however it is spelled (docs/authentication.md, "Email addresses"): Unicode NFKC,
 * case and a domain's trailing dot make no second account; an invisible character is refused
 * with a 400 that names it; sign-in, invitations, resets and the accounts CLI read addresses
 * the same way; the migration brings the rows stored before it to the same form.
 */

afterAll(() => stopContainers());

const MIGRATION = "20261127000000_email_normalised";
const ZWSP = "\u200b";

describe("look-alike email addresses", () => {
  let database: TestDatabase;
  let stack: Stack;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: { SIGN_UP: "open", TRUST_PROXY: "1" },
    });
    base = stack.gateway.url;
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  /** The accounts CLI as the operator runs it: its exit code and what it wrote. */
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const child = execFile(
        resolve(__dirname, "../node_modules/.bin/tsx"),
        [resolve(__dirname, "../services/gateway/src/accounts-cli.ts"), ...args],
        { env: { ...process.env, DATABASE_URL: database.url, PUBLIC_URL: "https://scan.example.com" } },
        (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });

  it("refuses a sign-up whose address is a look-alike of an account's as taken, and signs the look-alike in", async () => {
    expect((await new Browser(base).signUp("carol@adv.test", PASSWORD)).status).toBe(201);
    for (const lookAlike of [
      "carol@adv.test.",
      "ｃarol@adv.test",
      "CAROL@ADV.TEST",
      " Carol@Adv.Test. ",
      "carol＠adv.test",
    ]) {
      const refused = await new Browser(base).signUp(lookAlike, PASSWORD);
      expect({ lookAlike, status: refused.status, error: body(refused).error }).toEqual({
        lookAlike,
        status: 400,
        error: {
          code: "invalid_request",
          message: "An account cannot be made with this email address",
          hint: expect.any(String),
        },
      });
    }
    expect(await stack.db.user.count({ where: { email: { contains: "adv.test" } } })).toBe(1);
    const signedIn = await new Browser(base).signIn("ｃAROL@adv.test.", PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(body(signedIn).data.user.email).toBe("carol@adv.test");
  });

  it("refuses an address with an invisible character with a 400 that names it", async () => {
    const cases: Array<[string, string]> = [
      [`carol@adv.test${ZWSP}`, "U+200B"],
      ["car\u00adol@adv.test", "U+00AD"],
      ["\u202eliame@adv.test", "U+202E"],
      ["carol\u2060@adv.test", "U+2060"],
      ["carol@adv\ufeff.test", "U+FEFF"],
    ];
    for (const [address, named] of cases) {
      for (const response of [
        await new Browser(base).signUp(address, PASSWORD),
        await new Browser(base).signIn(address, PASSWORD),
      ]) {
        expect(response.status).toBe(400);
        expect(body(response).error).toEqual({
          code: "invalid_request",
          message: expect.stringMatching(
            new RegExp(`^email: contains an invisible character \\(${named.replace("+", "\\+")}\\) at position \\d+`),
          ),
          hint: expect.any(String),
        });
      }
    }
    expect(await stack.db.user.count({ where: { email: { contains: "adv.test" } } })).toBe(1);
  });

  it("stores an invitation's address normalised, and takes its look-alike at sign-up", async () => {
    const links = createOneTimeLinks({ db: stack.db, publicUrl: base });
    const invitation = await links.invite("Dave@Ｅxample.com.", { plan: "starter", role: "member", lifetimeS: 600 });
    expect(invitation.email).toBe("dave@example.com");
    await expect(
      links.invite(`carol@adv.test${ZWSP}`, { plan: "free", role: "member", lifetimeS: 600 }),
    ).rejects.toThrow(/invisible character \(U\+200B\)/);
    await expect(links.invite("CAROL@adv.test.", { plan: "free", role: "member", lifetimeS: 600 })).rejects.toThrow(
      "A user with email carol@adv.test already exists",
    );
    const signedUp = await new Browser(base).signUp("DAVE@example.com.", PASSWORD, invitation.token);
    expect(signedUp.status).toBe(201);
    expect(body(signedUp).data.user).toMatchObject({ email: "dave@example.com", plan: "starter" });
  });

  it("finds users by any spelling in the accounts CLI, and refuses an invisible character by name", async () => {
    const [found, taken, invisible, reset] = await Promise.all([
      cli(["set-plan", "--email", "ＣAROL@adv.test.", "--plan", "pro"]),
      cli(["create-user", "--email", "carol@ADV.test."]),
      cli(["create-user", "--email", `erin${ZWSP}@adv.test`]),
      cli(["reset-link", "--email", "carol@adv.test."]),
    ]);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ email: "carol@adv.test", plan: "pro" });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("A user with email carol@adv.test already exists");
    expect(invisible.code).toBe(1);
    expect(invisible.stderr).toContain("email contains an invisible character (U+200B) at position 5");
    expect(reset.code).toBe(0);
    expect(reset.stderr).toContain("a password reset link for carol@adv.test");
  }, 90_000);
});

describe(`the migration ${MIGRATION}`, () => {
  let before: string;
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    // the migrations as they were before this one: rows are written the way the old code stored them
    before = await mkdtemp(join(tmpdir(), "migrations-"));
    for (const name of await readdir(MIGRATIONS_DIR)) {
      if (name !== MIGRATION) await cp(join(MIGRATIONS_DIR, name), join(before, name), { recursive: true });
    }
    database = await createTestDatabase({ migrationsDir: before });
    client = new Client({ connectionString: database.url });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await database?.drop();
    await rm(before, { recursive: true, force: true });
  });

  const insertUser = async (email: string, createdAt: string): Promise<string> => {
    const { rows } = await client.query<{ id: string }>(
      "INSERT INTO users (id, email, created_at) VALUES (gen_random_uuid(), $1, $2) RETURNING id",
      [email, createdAt],
    );
    return (rows[0] as { id: string }).id;
  };

  it("normalises stored addresses; of two that become one, the one already normal (else the oldest) keeps it", async () => {
    // carol: the look-alikes of the issue, made before the plain address itself
    const carolDot = await insertUser("carol@adv.test.", "2026-01-01T00:00:00Z");
    const carolWide = await insertUser("ｃarol@adv.test", "2026-01-02T00:00:00Z");
    const carolZwsp = await insertUser(`carol@adv.test${ZWSP}`, "2026-01-03T00:00:00Z");
    const carol = await insertUser("carol@adv.test", "2026-01-04T00:00:00Z");
    // erin: no row is in the normal form yet, so the oldest takes it
    const erinLate = await insertUser("erin\u00ad@example.org", "2026-02-02T00:00:00Z");
    const erinEarly = await insertUser("erin@example.org.", "2026-02-01T00:00:00Z");
    // alone, only respelled
    const dave = await insertUser("dave@ｅxample.com", "2026-03-01T00:00:00Z");
    const plain = await insertUser("plain@example.net", "2026-03-02T00:00:00Z");
    await client.query(
      "INSERT INTO api_keys (id, user_id, hash, prefix) VALUES (gen_random_uuid(), $1::uuid, 'h-' || $1::text, 'aeo_live_x')",
      [carolWide],
    );
    await client.query(
      "INSERT INTO invitations (id, email, token_hash, expires_at) VALUES (gen_random_uuid(), $1, 'inv-1', now() + interval '1 day')",
      ["Frank@Ｅxample.net."],
    );

    expect(await migrateDeploy(database.url)).toEqual([MIGRATION]);

    const { rows } = await client.query<{ id: string; email: string }>("SELECT id, email FROM users");
    const emailOf = new Map(rows.map((row) => [row.id, row.email]));
    expect(rows).toHaveLength(8);
    expect(emailOf.get(carol)).toBe("carol@adv.test");
    expect(emailOf.get(carolDot)).toBe(`carol@adv.test#duplicate-${carolDot}`);
    expect(emailOf.get(carolWide)).toBe(`carol@adv.test#duplicate-${carolWide}`);
    expect(emailOf.get(carolZwsp)).toBe(`carol@adv.test#duplicate-${carolZwsp}`);
    expect(emailOf.get(erinEarly)).toBe("erin@example.org");
    expect(emailOf.get(erinLate)).toBe(`erin@example.org#duplicate-${erinLate}`);
    expect(emailOf.get(dave)).toBe("dave@example.com");
    expect(emailOf.get(plain)).toBe("plain@example.net");
    // a renamed account keeps what it owns
    const keys = await client.query("SELECT 1 FROM api_keys WHERE user_id = $1", [carolWide]);
    expect(keys.rowCount).toBe(1);
    const invitations = await client.query<{ email: string }>("SELECT email FROM invitations");
    expect(invitations.rows).toEqual([{ email: "frank@example.net" }]);
  });

  it("stores what the gateway's normaliser makes of every visible spelling", async () => {
    const spellings = [
      "Ｍａｘ@Ｅｘａｍｐｌｅ.ＣＯＭ.",
      "  ANNA@example.com ",
      "ﬁona@example.com",
      "𝐁𝐄𝐍@example.com",
      "zoë@exämple.de.",
    ];
    // the migration's function is temporary to its session: made again here, and given every spelling
    const sql = await readFile(join(MIGRATIONS_DIR, MIGRATION, "migration.sql"), "utf8");
    const fn = sql.slice(sql.indexOf("CREATE FUNCTION"), sql.indexOf("$$;") + 3);
    await client.query(fn);
    for (const spelling of spellings) {
      const { rows } = await client.query<{ email: string }>("SELECT pg_temp.normalised_email($1) AS email", [
        spelling,
      ]);
      const expected = normaliseEmail(spelling);
      expect({ spelling, email: rows[0]?.email }).toEqual({ spelling, email: expected.ok ? expected.email : null });
    }
  });
});
