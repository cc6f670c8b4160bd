import { lookup } from "node:dns/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "@scan/db/client";
import { parseAllowlist } from "@scan/shared/address-policy";
import { SCAN_QUEUE } from "@scan/shared/jobs";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { createApp } from "./app";
import type { Config } from "./config";
import { createScanService, terminalScansAmong } from "./domain/scan-service";
import { ScanWaiter } from "./domain/scan-waiter";

export type Gateway = { server: Server; url: string; close: () => Promise<void> };

const resolveAll = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * Wires and starts the gateway: one Queue and one QueueEvents per process, the waiter over
 * them, the express app, and an ordered, bounded close.
 */
export const startGateway = async ({ config, db, log }: { config: Config; db: Db; log: Logger }): Promise<Gateway> => {
  const allowlist = parseAllowlist(config.SCAN_ALLOWLIST);
  if (allowlist.size > 0)
    log.warn({ allowlist: [...allowlist] }, "SCAN_ALLOWLIST is set: these private targets may be scanned");
  // the queue fails fast while Redis is down, so a request is answered instead of hanging
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  connection.on("error", (error) => log.warn({ err: error.message }, "redis connection error"));
  // QueueEvents blocks on XREAD: its connection needs maxRetriesPerRequest null
  const eventsConnection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  eventsConnection.on("error", (error) => log.warn({ err: error.message }, "redis events connection error"));
  const queue = new Queue(SCAN_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  queue.on("error", (error) => log.warn({ err: error.message }, "queue error"));
  const events = new QueueEvents(SCAN_QUEUE, { connection: eventsConnection, prefix: config.QUEUE_PREFIX });
  events.on("error", (error) => log.warn({ err: error.message }, "queue events error"));
  await connection.ping().catch(() => undefined);
  await events.waitUntilReady();
  const waiter = new ScanWaiter(events, terminalScansAmong(db));
  const scans = createScanService({ db, queue, waiter, allowlist, resolve: resolveAll, waitMs: config.SCAN_WAIT_MS });
  const app = createApp({ scans, log, defaultForm: config.RESPONSE_FORM, bodyLimitBytes: config.BODY_LIMIT_BYTES });

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.PORT, config.HOST, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const address = server.address() as AddressInfo;
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;
  const url = `http://${host}:${address.port}`;

  const close = async () => {
    // stop intake; requests in flight get until the deadline, then their waits end as 202s
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, config.SHUTDOWN_TIMEOUT_MS, false).unref()),
    ]);
    if (!drained) {
      waiter.close();
      server.closeAllConnections();
    }
    waiter.close();
    await events.close();
    await queue.close();
    eventsConnection.disconnect();
    connection.disconnect();
  };
  return { server, url, close };
};
