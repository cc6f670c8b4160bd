import { createKeyCache, type KnownKey } from "./key-cache";

const key = (id: string, userId = "u1"): KnownKey => ({
  id,
  userId,
  workspaceId: "w1",
  plan: "pro",
  defaultForm: null,
  clientId: null,
  readOnly: false,
  revoked: false,
  lastUsedAt: null,
});

describe("key cache", () => {
  let clock = 0;
  const live = (ttlMs = 1_000, maxEntries = 3) => {
    const cache = createKeyCache({ ttlMs, maxEntries, now: () => clock });
    cache.setLive(true);
    return cache;
  };
  beforeEach(() => {
    clock = 0;
  });

  it("holds a key until its time is up", () => {
    const cache = live();
    cache.set("h1", key("k1"), cache.generation());
    clock = 999;
    expect(cache.get("h1")?.id).toBe("k1");
    clock = 1_000;
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it("holds nothing while the change feed is not heard, and drops everything when it is lost", () => {
    const cache = createKeyCache({ ttlMs: 1_000, maxEntries: 3, now: () => clock });
    cache.set("h1", key("k1"), cache.generation());
    expect(cache.get("h1")).toBeUndefined();
    cache.setLive(true);
    cache.set("h1", key("k1"), cache.generation());
    expect(cache.get("h1")).toBeDefined();
    cache.setLive(false);
    expect(cache.size()).toBe(0);
    cache.setLive(true);
    expect(cache.get("h1")).toBeUndefined();
  });

  it("is off with a time of 0", () => {
    const cache = live(0);
    cache.set("h1", key("k1"), cache.generation());
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.isLive()).toBe(false);
  });

  it("drops a key by id, and every key of a user", () => {
    const cache = live();
    cache.set("h1", key("k1", "u1"), cache.generation());
    cache.set("h2", key("k2", "u1"), cache.generation());
    cache.set("h3", key("k3", "u2"), cache.generation());
    cache.invalidateKey("k3");
    expect(cache.get("h3")).toBeUndefined();
    expect(cache.get("h1")).toBeDefined();
    cache.invalidateUser("u1");
    expect(cache.size()).toBe(0);
  });

  it("does not store a read that an invalidation overtook", () => {
    const cache = live();
    const readAt = cache.generation();
    // the key is revoked while its row is on the way
    cache.invalidateKey("k1");
    cache.set("h1", key("k1"), readAt);
    expect(cache.get("h1")).toBeUndefined();
  });

  it("keeps at most maxEntries, dropping the oldest", () => {
    const cache = live(1_000, 2);
    for (const n of [1, 2, 3]) cache.set(`h${n}`, key(`k${n}`), cache.generation());
    expect(cache.size()).toBe(2);
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.get("h3")).toBeDefined();
  });
});
