import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Client } from "pg";
import { connectionFields } from "./connection";

/**
 * prisma/migrations in the nearest directory above this code that has one: the repository's
 * from the sources, the image's from a bundle in services/<name>/dist/. The worker's image has
 * none and never reads it: the path is then the one the repository layout would give.
 */
const findMigrationsDir = (from: string): string => {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
  }
  return join(from, "../../../prisma/migrations");
};

export const MIGRATIONS_DIR = findMigrationsDir(__dirname);

// Prisma's own lock key and history table: a database migrated here is one that
// `prisma migrate deploy` (where its engine can be downloaded) regards as up to date, and back.
const PRISMA_LOCK_KEY = 72707369;
const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type Migration = { name: string; sql: string; checksum: string };
type HistoryRow = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

export const readMigrations = async (dir = MIGRATIONS_DIR): Promise<Migration[]> => {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  names.sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
};

const createDatabaseIfMissing = async (fields: ReturnType<typeof connectionFields>): Promise<void> => {
  const admin = new Client({ ...fields, database: "postgres" });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [fields.database]);
    if (found.rowCount === 0) {
      const quoted = `"${fields.database.replaceAll('"', '""')}"`;
      await admin.query(`CREATE DATABASE ${quoted}`).catch((error: { code?: string }) => {
        if (error.code !== "42P04") throw error; // created meanwhile by another process
      });
    }
  } finally {
    await admin.end();
  }
};

/**
 * Applies the migrations in prisma/migrations that the database has not seen, in name order,
 * each in its own transaction, as `prisma migrate deploy` does. Creates the database when it
 * does not exist. Refuses to go on past a failed or edited migration: both need a person.
 * Returns the names it applied.
 */
export const migrateDeploy = async (databaseUrl: string, dir = MIGRATIONS_DIR): Promise<string[]> => {
  const fields = connectionFields(databaseUrl);
  await createDatabaseIfMissing(fields);
  const migrations = await readMigrations(dir);
  const client = new Client(fields);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_LOCK_KEY]);
    await client.query(HISTORY_TABLE);
    const history = await client.query<HistoryRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const live = history.rows.filter((row) => row.rolled_back_at === null);
    const failed = live.find((row) => row.finished_at === null);
    if (failed) {
      throw new Error(
        `migration ${failed.migration_name} failed earlier; resolve it (prisma migrate resolve) before deploying`,
      );
    }
    const applied = new Map(live.map((row) => [row.migration_name, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was edited after it was applied; add a new migration instead`);
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(
          'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
};
