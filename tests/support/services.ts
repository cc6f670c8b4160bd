import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { migrateDeploy } from "@scan/db";
import { Client } from "pg";

/**
 * Real Postgres and Redis for tests: DATABASE_URL and REDIS_URL when set (CI and developer
 * machines run both), otherwise containers started with testcontainers where a Docker
 * engine exists, otherwise the servers on their standard local ports if they answer.
 * Each test file gets a database of its own, dropped at the end.
 */
let postgresBase: Promise<string> | null = null;
let redisUrl: Promise<string> | null = null;
const stops: Array<() => Promise<unknown>> = [];

const dockerAvailable = (): boolean => Boolean(process.env.DOCKER_HOST) || existsSync("/var/run/docker.sock");

const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, timeout: 1_000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });

/** Without Docker, the local server on its standard port, or a message saying what to set. */
const localServer = async (name: string, variable: string, port: number, url: string): Promise<string> => {
  if (await answers(port)) return url;
  throw new Error(
    `${variable} is not set, no Docker engine is available for testcontainers, and no ${name} answers on 127.0.0.1:${port}: set ${variable} or start ${name}`,
  );
};

const basePostgresUrl = (): Promise<string> => {
  postgresBase ??= (async () => {
    if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
    if (!dockerAvailable()) {
      return localServer("PostgreSQL", "DATABASE_URL", 5432, "postgresql://postgres@127.0.0.1:5432/postgres");
    }
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const container = await new PostgreSqlContainer("postgres:16-alpine").start();
    stops.push(() => container.stop());
    return container.getConnectionUri();
  })();
  return postgresBase;
};

export const testRedisUrl = (): Promise<string> => {
  redisUrl ??= (async () => {
    if (process.env.REDIS_URL) return process.env.REDIS_URL;
    if (!dockerAvailable()) return localServer("Redis", "REDIS_URL", 6379, "redis://127.0.0.1:6379");
    const { RedisContainer } = await import("@testcontainers/redis");
    const container = await new RedisContainer("redis:7-alpine").start();
    stops.push(() => container.stop());
    return container.getConnectionUrl();
  })();
  return redisUrl;
};

export type TestDatabase = { url: string; drop: () => Promise<void> };

/** A fresh, migrated database for one test file; `migrationsDir` migrates it with another set (a migration test's earlier state). */
export const createTestDatabase = async ({ migrationsDir }: { migrationsDir?: string } = {}): Promise<TestDatabase> => {
  const base = new URL(await basePostgresUrl());
  const name = `scan_test_${randomBytes(6).toString("hex")}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migrateDeploy(url.toString(), migrationsDir);
  const drop = async () => {
    const admin = new Client({ connectionString: base.toString() });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
  return { url: url.toString(), drop };
};

export const uniquePrefix = (): string => `test-${randomBytes(6).toString("hex")}`;

export const stopContainers = async (): Promise<void> => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
};
