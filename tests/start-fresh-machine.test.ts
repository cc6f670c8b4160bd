import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "pg";
import { localPostgres } from "../scripts/start-postgres";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { eventually } from "./support/outages";
import { stopContainers, testRedisUrl, uniquePrefix } from "./support/services";

/**
 * The README's first command on a machine that has Node.js but no pnpm on the PATH, and whose
 * local PostgreSQL wants a password over TCP (Debian's stock cluster, here a throwaway one with
 * scram-sha-256 on a port of its own): `./start --scan <url>` fetches pnpm, installs, notices
 * the password, runs the embedded PostgreSQL instead, and prints the scan's grade. Ctrl-C stops
 * everything it started.
 */

afterAll(() => stopContainers());

const ROOT = resolve(__dirname, "..");

const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
};

const portOpen = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const client = new Client({ host: "127.0.0.1", port, user: "nobody", connectionTimeoutMillis: 1_000 });
    client.connect().then(
      () => client.end().then(() => done(true)),
      (error: { code?: string }) => done(error.code !== "ECONNREFUSED"),
    );
  });

/** A PostgreSQL cluster of its own that wants a password over TCP; run as `postgres` when the test runs as root. */
const passwordCluster = async (dir: string) => {
  const bin = `/usr/lib/postgresql/${(await readdir("/usr/lib/postgresql")).sort().at(-1)}/bin`;
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const run = (command: string, args: string[]) => {
    const [first, ...rest] = [...asPostgres, join(bin, command), ...args];
    return execFileSync(first as string, rest, { stdio: "pipe" });
  };
  const data = join(dir, "cluster");
  await mkdir(data, { mode: 0o700 });
  await writeFile(join(dir, "pw"), "a-password-nobody-gave-start\n", { mode: 0o644 });
  if (asPostgres.length) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    await chown(data, uid, gid);
  }
  run("initdb", ["-D", data, "--auth=scram-sha-256", "--username=postgres", `--pwfile=${join(dir, "pw")}`]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    data,
    "-w",
    "-l",
    join(data, "log"),
    "-o",
    `-p ${port} -k ${data} -c listen_addresses=127.0.0.1`,
    "start",
  ]);
  return { port, stop: () => run("pg_ctl", ["-D", data, "-w", "-m", "fast", "stop"]) };
};

/** A PATH of links to every program of /usr/bin but the ones `left out` names: a machine without them. */
const pathWithout = async (dir: string, leftOut: RegExp): Promise<string> => {
  const bin = await mkdtemp(join(dir, "bin-"));
  await chmod(bin, 0o755);
  for (const name of await readdir("/usr/bin")) {
    if (leftOut.test(name)) continue;
    await symlink(join("/usr/bin", name), join(bin, name));
  }
  return `${bin}:/usr/sbin`;
};

const PNPM = /^(pnpm|pnpx|pn|pnx)$/;

/**
 * This machine's environment (its CA certificates, its proxy, HOME) without what the test run
 * itself set: pnpm's `npm_*` variables, jest's NODE_ENV and the test database.
 */
const machineEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(npm_|pnpm_|jest_)/i.test(name) &&
        !["DATABASE_URL", "REDIS_URL", "PORT", "INIT_CWD", "NODE_ENV"].includes(name),
    ),
  );

describe("./start on a machine with only Node.js", () => {
  let dir: string;
  let cluster: { port: number; stop: () => Buffer };
  let site: FixtureServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fresh-machine-"));
    // the embedded PostgreSQL runs as `postgres` under root, and must reach its data directory
    await chmod(dir, 0o755);
    cluster = await passwordCluster(dir);
    site = await startFixtureServer({
      "/": html(
        '<!doctype html><html lang="en"><head><title>A page scanned by the first command</title></head><body><h1>Hello</h1></body></html>',
      ),
    });
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.pid) {
      // its process group may be gone already, its exit not yet reported
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    }
    cluster?.stop();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // a user who is not root and has no passwordless sudo (nobody), on a machine without
  // redis-server where no Redis answers (a network namespace of its own: its loopback has none)
  (process.getuid?.() === 0 ? it : it.skip)(
    "stops with the one command to run when it may not install what is missing",
    async () => {
      const PATH = await pathWithout(dir, /^(pnpm|pnpx|pn|pnx|redis-server|sudo)$/);
      // machineEnv() leaves REDIS_URL out
      const env = { ...machineEnv(), PATH, HOME: dir };
      const run = new Promise<{ code: number | null; output: string }>((done) => {
        const child = spawn(
          "unshare",
          [
            "-n",
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            join(ROOT, "start"),
            "--scan",
            "https://example.com",
          ],
          { env, stdio: ["ignore", "pipe", "pipe"] },
        );
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.once("exit", (code) => done({ code, output }));
      });
      expect(await run).toEqual({
        code: 1,
        output:
          "[start] needed and missing: redis-server. Run: sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server   (then ./start again)\n",
      });
    },
    60_000,
  );

  it("uses the local server with PGPASSWORD, and asks for DATABASE_URL by name when the port is not PostgreSQL", async () => {
    const said: string[] = [];
    const say = (message: string) => said.push(message);
    const env = { PGPORT: String(cluster.port), PGPASSWORD: "a-password-nobody-gave-start" };
    const started = await localPostgres({ env, dataDir: join(dir, "unused"), say });
    expect(started).toEqual({
      url: `postgresql://postgres:a-password-nobody-gave-start@127.0.0.1:${cluster.port}/aeo_scan`,
    });
    expect(said).toEqual([`using the PostgreSQL server on 127.0.0.1:${cluster.port}`]);
    const client = new Client({ connectionString: started.url.replace(/aeo_scan$/, "postgres") });
    await client.connect();
    expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await client.end();

    // something else listens where PostgreSQL was expected
    const notPostgres = Number(new URL(site.origin).port);
    await expect(
      localPostgres({ env: { PGPORT: String(notPostgres) }, dataDir: join(dir, "unused"), say }),
    ).rejects.toThrow(
      new RegExp(`^the PostgreSQL server on 127\\.0\\.0\\.1:${notPostgres} cannot be used \\(.+\\): set DATABASE_URL=`),
    );
    // DATABASE_URL wins over everything
    expect(await localPostgres({ env: { DATABASE_URL: "postgresql://u:p@db.internal/x" }, dataDir: dir, say })).toEqual(
      {
        url: "postgresql://u:p@db.internal/x",
      },
    );
  }, 60_000);

  it("gets pnpm, uses the embedded PostgreSQL for the one that wants a password, and prints the scan", async () => {
    const PATH = await pathWithout(dir, PNPM);
    expect(() => execFileSync("sh", ["-c", "command -v pnpm"], { env: { PATH } })).toThrow();
    const prefix = uniquePrefix();
    const [apiPort, embeddedPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    child = spawn(join(ROOT, "start"), ["--scan", site.url("/"), "--port", String(apiPort)], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...machineEnv(),
        PATH,
        DATA_DIR: join(dir, "data"),
        PGPORT: String(cluster.port),
        EMBEDDED_PG_PORT: String(embeddedPort),
        METRICS_PORT: String(metricsPort),
        REDIS_URL: await testRedisUrl(),
        QUEUE_PREFIX: prefix,
        RATE_LIMIT_PREFIX: `${prefix}:ratelimit`,
        SCAN_ALLOWLIST: site.hostPort,
        LOG_LEVEL: "warn",
      },
    });
    let output = "";
    const exited = new Promise<number | null>((done) => child?.once("exit", (code) => done(code)));
    const graded = new Promise<void>((done, fail) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/\[start\] grade [A-F] {2}overall \d+/.test(output)) done();
      };
      child?.stdout?.on("data", read);
      child?.stderr?.on("data", read);
      void exited.then((code) => fail(new Error(`./start exited (${code}) before the scan:\n${output}`)));
    });
    await graded;

    expect(output).toContain(`pnpm 12 is not on the PATH: installing it with npm into ${join(dir, "data", "tools")}`);
    expect(output).toContain(
      `the PostgreSQL server on 127.0.0.1:${cluster.port} wants a password for postgres over TCP: using an embedded PostgreSQL instead ` +
        `(to use that server, set DATABASE_URL=postgresql://postgres:PASSWORD@127.0.0.1:${cluster.port}/aeo_scan)`,
    );
    expect(output).toContain(`starting an embedded PostgreSQL on 127.0.0.1:${embeddedPort}`);
    expect(output).toContain(`the API is up at http://127.0.0.1:${apiPort}`);
    // the scan was stored in the embedded server
    const db = new Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${embeddedPort}/aeo_scan` });
    await db.connect();
    const { rows } = await db.query<{ url: string; status: string }>("SELECT url, status FROM scans");
    await db.end();
    expect(rows).toEqual([{ url: site.url("/"), status: "completed" }]);

    // Ctrl-C: the terminal signals the whole foreground group
    process.kill(-(child.pid as number), "SIGINT");
    await exited;
    await eventually(
      async () => !(await portOpen(apiPort)) && !(await portOpen(embeddedPort)),
      30_000,
      "everything stopped",
    );
  }, 600_000);
});
