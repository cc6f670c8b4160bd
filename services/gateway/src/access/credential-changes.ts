import { connectionFields } from "@scan/db";
import { Client } from "pg";
import type { Logger } from "pino";
import { z } from "zod";
import type { KeyCache } from "./key-cache";

/** The channel the credential triggers (migration 20261124000000_credential_notify) notify on. */
export const CREDENTIAL_CHANNEL = "credential_changes";

const Change = z.union([
  z.object({ key_id: z.string() }),
  z.object({ user_id: z.string() }),
  z.object({ workspace_id: z.string() }),
]);

export type CredentialFeedOptions = {
  databaseUrl: string;
  cache: KeyCache;
  log: Logger;
  /** the first wait before reconnecting after the feed is lost; doubles up to maxBackoffMs */
  backoffMs?: number;
  maxBackoffMs?: number;
};

/**
 * Listens on Postgres for credential changes and applies them to the key cache. The cache is
 * used only while this connection is up and listening: when it drops, the cache is emptied and
 * bypassed (every keyed request reads Postgres again) until the LISTEN is back.
 */
export const startCredentialFeed = ({
  databaseUrl,
  cache,
  log,
  backoffMs = 250,
  maxBackoffMs = 5_000,
}: CredentialFeedOptions) => {
  let client: Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wait = backoffMs;
  let firstHeard: () => void = () => undefined;
  const heard = new Promise<void>((resolve) => {
    firstHeard = resolve;
  });

  /** Drops the current connection, if any, without hearing from it again. */
  const hangUp = async () => {
    const current = client;
    client = null;
    if (!current) return;
    current.removeAllListeners();
    current.on("error", () => undefined);
    await current.end().catch(() => undefined);
  };

  const lost = (reason: string) => {
    if (cache.isLive())
      log.warn({ reason }, "credential change feed lost: API keys are read from Postgres until it is back");
    cache.setLive(false);
    void hangUp();
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, wait);
    timer.unref();
    wait = Math.min(wait * 2, maxBackoffMs);
  };

  const connect = async () => {
    if (stopped) return;
    const next = new Client({ ...connectionFields(databaseUrl), application_name: "gateway credential feed" });
    client = next;
    next.on("error", (error) => lost(error.message));
    next.on("end", () => {
      if (client === next) lost("connection ended");
    });
    next.on("notification", (message) => {
      if (message.channel !== CREDENTIAL_CHANNEL) return;
      let change: z.infer<typeof Change>;
      try {
        change = Change.parse(JSON.parse(message.payload ?? ""));
      } catch {
        // a change we cannot read could be any key's: forget them all
        cache.clear();
        return;
      }
      if ("key_id" in change) cache.invalidateKey(change.key_id);
      else if ("user_id" in change) cache.invalidateUser(change.user_id);
      else cache.invalidateWorkspace(change.workspace_id);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CREDENTIAL_CHANNEL}`);
    } catch (error) {
      if (client === next) lost((error as Error).message);
      return;
    }
    if (client !== next || stopped) return;
    wait = backoffMs;
    cache.setLive(true);
    firstHeard();
  };

  void connect();

  return {
    /** resolves once the feed is first heard (the cache is in use from then on) */
    heard: () => heard,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      cache.setLive(false);
      await hangUp();
    },
  };
};

export type CredentialFeed = ReturnType<typeof startCredentialFeed>;
