import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { createDb } from "@scan/db";
import { issueUserToken, loadConfig, startGateway } from "@scan/gateway";
import { createLogger } from "@scan/platform";
import { createAccount } from "./support/accounts";
import { MISSING_SCAN } from "./support/accounts-api";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl, uniquePrefix } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A fresh machine works at once: without a JWT key a development gateway makes one under
 * DATA_DIR (0600), logs that it did, keeps it across restarts and shares it with the accounts
 * CLI; with NODE_ENV=production a missing key stops the gateway with a message saying what to set.
 */

afterAll(() => stopContainers());

describe("the development JWT key", () => {
  let database: TestDatabase;
  let scratch: string;
  const lines: string[] = [];
  const log = createLogger(
    { service: "test", level: "info" },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    }),
  );

  beforeAll(async () => {
    database = await createTestDatabase();
    scratch = mkdtempSync(join(tmpdir(), "scan-dev-key-"));
  }, 300_000);

  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await database?.drop();
  });

  const start = async (dataDir: string): Promise<Stack> =>
    startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: { JWT_SECRET: "", DATA_DIR: dataDir },
      log,
    });

  it("is made under DATA_DIR on a first start, kept 0600, and signs tokens the key endpoints accept", async () => {
    const dataDir = join(scratch, "fresh", ".data");
    const stack = await start(dataDir);
    try {
      const file = join(dataDir, "jwt-dev-secret");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const secret = readFileSync(file, "utf8").trim();
      expect(secret.length).toBeGreaterThanOrEqual(32);
      const made = lines.map((line) => JSON.parse(line)).find((line) => /made a development key/.test(line.msg));
      expect(made).toEqual(expect.objectContaining({ level: 40, path: file }));
      expect(lines.join("\n")).not.toContain(secret);

      const account = await createAccount(stack.db);
      const token = issueUserToken({ algorithm: "HS256", secret }, account.user, 60);
      const keys = await api(stack.gateway.url, "/api/v1/keys", { headers: { authorization: `Bearer ${token}` } });
      expect(keys.status).toBe(200);
      // the test stacks' usual secret is not this key
      expect(
        (await api(stack.gateway.url, "/api/v1/keys", { headers: { authorization: `Bearer ${account.token}` } }))
          .status,
      ).toBe(401);
      const keyed = await api(stack.gateway.url, `/api/v1/scan/${MISSING_SCAN}`, {
        headers: { "x-api-key": account.key },
      });
      expect(keyed.status).toBe(404);

      // the accounts CLI signs with the same key
      const cliToken = await new Promise<string>((done, fail) =>
        execFile(
          resolve(__dirname, "../node_modules/.bin/tsx"),
          [resolve(__dirname, "../services/gateway/src/accounts-cli.ts"), "token", "--email", account.user.email],
          { env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, JWT_SECRET: "", NODE_ENV: "" } },
          (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout.trim())),
        ),
      );
      const viaCli = await api(stack.gateway.url, "/api/v1/keys", { headers: { authorization: `Bearer ${cliToken}` } });
      expect(viaCli.status).toBe(200);
    } finally {
      await stack.close();
    }

    lines.length = 0;
    const again = await start(dataDir);
    try {
      expect(readFileSync(join(dataDir, "jwt-dev-secret"), "utf8").trim().length).toBeGreaterThanOrEqual(32);
      expect(lines.some((line) => /using the development key made earlier/.test(JSON.parse(line).msg))).toBe(true);
      const account = await createAccount(again.db);
      const secret = readFileSync(join(dataDir, "jwt-dev-secret"), "utf8").trim();
      const token = issueUserToken({ algorithm: "HS256", secret }, account.user, 60);
      const keys = await api(again.gateway.url, "/api/v1/keys", { headers: { authorization: `Bearer ${token}` } });
      expect(keys.status).toBe(200);
    } finally {
      await again.close();
    }
  }, 300_000);

  it("is never made in production: a gateway without a key does not start, and says what to set", async () => {
    const dataDir = join(scratch, "production", ".data");
    const config = loadConfig({
      DATABASE_URL: database.url,
      REDIS_URL: await testRedisUrl(),
      QUEUE_PREFIX: uniquePrefix(),
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DATA_DIR: dataDir,
    });
    const db = createDb(database.url);
    try {
      await expect(startGateway({ config, db, log })).rejects.toThrow(
        /no JWT key is configured: set JWT_SECRET .*With NODE_ENV=production no development key is made/,
      );
    } finally {
      await db.$disconnect();
    }
    expect(() => statSync(dataDir)).toThrow(/ENOENT/);

    // the program itself: exit status 1 and the message, before it listens
    const exit = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = execFile(
        resolve(__dirname, "../node_modules/.bin/tsx"),
        [resolve(__dirname, "../services/gateway/src/main.ts")],
        {
          env: {
            ...process.env,
            DATABASE_URL: database.url,
            NODE_ENV: "production",
            JWT_SECRET: "",
            DATA_DIR: dataDir,
            PORT: "0",
            HOST: "127.0.0.1",
          },
        },
        (_error, _stdout, stderr) => done({ code: child.exitCode, stderr }),
      );
    });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/no JWT key is configured: set JWT_SECRET/);
    expect(() => statSync(dataDir)).toThrow(/ENOENT/);
  }, 300_000);

  it("an unusable key file is an error naming the file, not a new key", async () => {
    const dataDir = join(scratch, "broken");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, "jwt-dev-secret"), "short\n");
    await expect(start(dataDir)).rejects.toThrow(/jwt-dev-secret holds no usable JWT key/);
    expect(readFileSync(join(dataDir, "jwt-dev-secret"), "utf8")).toBe("short\n");
  });
});
