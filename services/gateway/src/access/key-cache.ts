import type { Plan, ResponseForm } from "@scan/contract";

/** What the authenticator needs of a stored key, as it was read from Postgres. */
export type KnownKey = {
  id: string;
  userId: string;
  workspaceId: string;
  plan: Plan;
  defaultForm: ResponseForm | null;
  /** fixed when the key is made: its client (null: the whole workspace) and whether it only reads */
  clientId: string | null;
  readOnly: boolean;
  revoked: boolean;
  /** epoch ms of the last recorded use, or null */
  lastUsedAt: number | null;
};

export type KeyCacheOptions = {
  /** an entry is read again from Postgres after this long, whatever was heard; 0 turns the cache off */
  ttlMs: number;
  /** the most keys held; the oldest entry goes first */
  maxEntries: number;
  now?: () => number;
};

export type KeyCache = {
  /** The key with this hash while the cache is live and its entry younger than `ttlMs`; undefined otherwise. */
  get: (hash: string) => KnownKey | undefined;
  /** Stores a key read from Postgres, unless something was invalidated since `readAt` began. */
  set: (hash: string, key: KnownKey, readAt: number) => void;
  /** the generation to hand back to `set` after a database read */
  generation: () => number;
  /** Drops the key with this id (revoked, or its default form changed). */
  invalidateKey: (keyId: string) => void;
  /** Drops every key the user made (their plan changed, or they are gone). */
  invalidateUser: (userId: string) => void;
  /** Drops every key of the workspace (its plan changed, or it is gone). */
  invalidateWorkspace: (workspaceId: string) => void;
  /** Drops every key. */
  clear: () => void;
  /** whether invalidations are being heard; going dark drops everything */
  setLive: (heard: boolean) => void;
  /** How many keys are held. */
  size: () => number;
  /** Whether the cache is in use: the feed is heard and it is not turned off. */
  isLive: () => boolean;
};

/**
 * API keys by hash, in this process, so that a keyed request needs no database read. It is
 * only used while the change feed is heard (`setLive(true)`): a key revoked, a default form
 * changed or an owner re-planned anywhere is dropped as soon as its notification arrives, and
 * the whole cache is dropped and bypassed whenever the feed is lost, until it is heard again.
 * `ttlMs` bounds how long an entry lives even if a notification never came.
 */
export const createKeyCache = ({ ttlMs, maxEntries, now = Date.now }: KeyCacheOptions): KeyCache => {
  const entries = new Map<string, { key: KnownKey; storedAt: number }>();
  let live = false;
  /** bumped by every invalidation: a read that started before one must not be stored after it */
  let generation = 0;

  const enabled = () => live && ttlMs > 0 && maxEntries > 0;

  const get = (hash: string): KnownKey | undefined => {
    if (!enabled()) return undefined;
    const entry = entries.get(hash);
    if (!entry) return undefined;
    if (now() - entry.storedAt >= ttlMs) {
      entries.delete(hash);
      return undefined;
    }
    return entry.key;
  };

  /** Stores a key read from Postgres, unless something was invalidated since `readAt` began. */
  const set = (hash: string, key: KnownKey, readAt: number) => {
    if (!enabled() || readAt !== generation) return;
    entries.delete(hash);
    entries.set(hash, { key, storedAt: now() });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  };

  const dropWhere = (match: (key: KnownKey) => boolean) => {
    generation++;
    for (const [hash, entry] of entries) if (match(entry.key)) entries.delete(hash);
  };

  return {
    get,
    set,
    /** the generation to hand back to `set` after a database read */
    generation: () => generation,
    invalidateKey: (keyId: string) => dropWhere((key) => key.id === keyId),
    invalidateUser: (userId: string) => dropWhere((key) => key.userId === userId),
    invalidateWorkspace: (workspaceId: string) => dropWhere((key) => key.workspaceId === workspaceId),
    clear: () => dropWhere(() => true),
    /** whether invalidations are being heard; going dark drops everything */
    setLive: (heard: boolean) => {
      live = heard;
      if (!heard) dropWhere(() => true);
    },
    size: () => entries.size,
    isLive: () => enabled(),
  };
};
