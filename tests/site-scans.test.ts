import { randomUUID } from "node:crypto";
import { sites } from "@scan/records";
import { createAccount, type TestAccount } from "./support/accounts";
import { body, UUID } from "./support/accounts-api";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { expectPage } from "./support/lists";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * A completed scan made with a key upserts its owner's site for the scanned URL's origin:
 * latest scores (a full scan's over a quick one's), last_scan_at. Through the real gateway,
 * queue, Chromium worker and Postgres, with scans answered 202 so that the worker alone
 * completes them; then the upsert's rules on their own.
 */

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Brewing guides for home baristas, from grind to cup</title>
<meta name="description" content="Step-by-step brewing guides for espresso, pour over and cold brew, with ratios, grind sizes and the mistakes to avoid at home.">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head><body><main><h1>Brewing guides</h1>
<p>Every guide starts with the ratio, then the grind, then the method.</p>
<h2>What ratio should I use for cold brew?</h2><p>One part coffee to eight parts water, steeped for sixteen hours.</p>
</main></body></html>`;

afterAll(() => stopContainers());

describe("sites from keyed scans, end to end", () => {
  let first: FixtureServer;
  let second: FixtureServer;
  let third: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  const finished = new Set<string>();
  const waiting = new Map<string, () => void>();

  /** Resolves when the worker has finished the scan (its row is stored by then). */
  const completion = (scanId: string) =>
    finished.has(scanId) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(scanId, resolve));

  beforeAll(async () => {
    const routes = {
      "/": html(PAGE),
      "/guides/cold-brew": html(PAGE),
      "/broken": html("<h1>down</h1>", 503),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    };
    first = await startFixtureServer(routes);
    second = await startFixtureServer(routes);
    third = await startFixtureServer(routes);
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [first.hostPort, second.hostPort, third.hostPort],
      // every scan is answered 202 at once: the worker completes it with nobody waiting
      env: { SCAN_WAIT_MS: "1", SCAN_TIMEOUT_MS: "10000", RATE_LIMIT_FREE: "100000", RATE_LIMIT_ANONYMOUS: "100000" },
    });
    const mark = (id: string | undefined) => {
      if (!id) return;
      finished.add(id);
      waiting.get(id)?.();
    };
    stack.worker?.worker.on("completed", (job) => mark(job.id));
    stack.worker?.worker.on("failed", (job) => mark(job?.id));
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await first?.close();
    await second?.close();
    await third?.close();
    await database?.drop();
  });

  const call = (path: string, key: string | null, init: { body?: unknown; form?: "B" } = {}) =>
    api(stack.gateway.url, path, {
      ...(init.body === undefined ? {} : { body: init.body }),
      headers: { ...(key ? { "x-api-key": key } : {}), ...(init.form ? { "x-response-form": init.form } : {}) },
    });

  /** Scans `url` with `account`'s key (or anonymously), waits for the worker, answers the stored scan. */
  const scan = async (account: TestAccount | null, url: string, mode: "quick" | "full") => {
    const queued = await call("/api/v1/scan", account?.key ?? null, { body: { url, mode } });
    expect(queued.status).toBe(202);
    const id = body(queued).data.id;
    await completion(id);
    // an anonymous scan is read by the link its POST answered, a keyed one with the key
    const stored = await call(queued.headers.get("location") as string, account?.key ?? null);
    expect(body(stored).data.status).toBe("completed");
    return body(stored).data;
  };

  const sitesOf = async (account: TestAccount, form?: "B") => {
    const response = await call("/api/v1/sites?limit=100", account.key, form ? { form } : {});
    return expectPage(response, { page: 1, limit: 100, total: body(response).meta.total, hasMore: false }, form ?? "A");
  };

  it("creates the owner's site for the origin, with a quick scan's scores marked partial", async () => {
    const account = await createAccount(stack.db);
    const stored = await scan(account, first.url("/guides/cold-brew"), "quick");
    const sites = await sitesOf(account);
    expect(sites).toEqual([
      {
        id: expect.stringMatching(UUID),
        url: first.origin,
        domain: "127.0.0.1",
        name: "127.0.0.1",
        is_verified: false,
        latest_scores: { seo: stored.scores.seo, aeo: stored.scores.aeo, geo: stored.scores.geo },
        latest_scores_scan: { id: stored.id, mode: "quick", partial: true, scanned_at: stored.completed_at },
        latest_scores_audit: null,
        last_scan_at: stored.completed_at,
        client_id: null,
        created_at: expect.any(String),
      },
    ]);
  }, 300_000);

  it("prefers a full scan's scores, keeps them over later quick scans, and moves last_scan_at with every scan", async () => {
    const account = await createAccount(stack.db);
    // a site created through the API is the one the scans update
    const created = await call("/api/v1/sites", account.key, { body: { url: `${second.origin}/`, name: "Second" } });
    expect(created.status).toBe(201);
    const siteId = body(created).data.id;

    const quick = await scan(account, second.url("/"), "quick");
    const full = await scan(account, second.url("/guides/cold-brew"), "full");
    let [site] = await sitesOf(account);
    expect(site).toEqual(
      expect.objectContaining({
        id: siteId,
        name: "Second",
        latest_scores: { seo: full.scores.seo, aeo: full.scores.aeo, geo: full.scores.geo },
        latest_scores_scan: { id: full.id, mode: "full", partial: false, scanned_at: full.completed_at },
        last_scan_at: full.completed_at,
      }),
    );
    expect(Date.parse(full.completed_at)).toBeGreaterThan(Date.parse(quick.completed_at));

    const laterQuick = await scan(account, second.url("/"), "quick");
    [site] = await sitesOf(account, "B");
    expect(site.latest_scores_scan).toEqual({
      id: full.id,
      mode: "full",
      partial: false,
      scanned_at: full.completed_at,
    });
    expect(site.last_scan_at).toBe(laterQuick.completed_at);
  }, 300_000);

  it("gives anonymous scans no site, and each user's scans their own", async () => {
    await scan(null, third.url("/"), "quick");
    expect(await stack.db.site.count({ where: { url: third.origin } })).toBe(0);

    const one = await createAccount(stack.db);
    const two = await createAccount(stack.db);
    const byOne = await scan(one, third.url("/"), "quick");
    const byTwo = await scan(two, third.url("/guides/cold-brew"), "quick");
    const [siteOne] = await sitesOf(one);
    const [siteTwo] = await sitesOf(two);
    expect(siteOne?.url).toBe(third.origin);
    expect(siteTwo?.url).toBe(third.origin);
    expect(siteOne?.id).not.toBe(siteTwo?.id);
    expect(siteOne?.latest_scores_scan.id).toBe(byOne.id);
    expect(siteTwo?.latest_scores_scan.id).toBe(byTwo.id);
  }, 300_000);

  it("answers one site by id, and the owner's scans of its origin only", async () => {
    const account = await createAccount(stack.db);
    const other = await createAccount(stack.db);
    const ofFirst = await scan(account, first.url("/guides/cold-brew"), "quick");
    const ofSecond = await scan(account, second.url("/"), "quick");
    const [siteOfSecond, siteOfFirst] = await sitesOf(account);
    expect(siteOfFirst?.url).toBe(first.origin);

    const one = await call(`/api/v1/sites/${siteOfFirst?.id.toUpperCase()}`, account.key);
    expect(one.status).toBe(200);
    // the list's row, and the one read adds the site's audit schedule (none here)
    expect(body(one).data).toEqual({ ...siteOfFirst, schedule: null });
    const history = await call(`/api/v1/scans?site_id=${siteOfFirst?.id}`, account.key);
    expect(history.status).toBe(200);
    expect(body(history).data.map((row: { id: string }) => row.id)).toEqual([ofFirst.id]);
    expect(body(history).meta).toMatchObject({ total: 1, hasMore: false });
    const ofOther = await call(`/api/v1/scans?site_id=${siteOfSecond?.id}`, account.key);
    expect(body(ofOther).data.map((row: { id: string }) => row.id)).toEqual([ofSecond.id]);

    // another user's site is as missing as an unknown one
    for (const path of [`/api/v1/sites/${siteOfFirst?.id}`, `/api/v1/scans?site_id=${siteOfFirst?.id}`]) {
      const refused = await call(path, other.key);
      expect(refused.status).toBe(404);
      expect(body(refused).error.code).toBe("not_found");
    }
    expect((await call(`/api/v1/sites/${randomUUID()}`, account.key)).status).toBe(404);
    expect((await call("/api/v1/sites/not-a-uuid", account.key)).status).toBe(400);
  }, 300_000);

  it("leaves the owner without a site when the scan fails", async () => {
    const account = await createAccount(stack.db);
    const queued = await call("/api/v1/scan", account.key, { body: { url: first.url("/broken"), mode: "quick" } });
    expect(queued.status).toBe(202);
    await completion(body(queued).data.id);
    const stored = await call(`/api/v1/scan/${body(queued).data.id}`, account.key);
    expect(body(stored).data.status).toBe("failed");
    expect(await sitesOf(account)).toEqual([]);
  }, 300_000);
});

describe("sites.recordScanScores", () => {
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  const T0 = new Date("2026-11-01T12:00:00.000Z");
  const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

  /** A stored scan row, as the worker has it when it completes a scan. */
  const completed = async (userId: string, mode: "quick" | "full", minutes: number, seo: number) => {
    const id = randomUUID();
    const scan = await stack.db.scan.create({
      data: { id, userId, url: "https://brew.example/guide", mode, status: "completed", completedAt: at(minutes) },
    });
    return {
      id,
      owner: { workspaceId: scan.workspaceId ?? "", userId },
      url: "https://brew.example/guide",
      mode,
      scores: { seo, aeo: seo - 10, geo: seo - 20 },
      completedAt: at(minutes),
    };
  };

  /** the site in the user's personal workspace, where their scans are */
  const siteOf = (userId: string) =>
    stack.db.site.findFirstOrThrow({ where: { url: "https://brew.example", workspace: { personalUserId: userId } } });

  it("ranks full above quick, then later above earlier, and is idempotent", async () => {
    const { user } = await createAccount(stack.db);
    const quick = await completed(user.id, "quick", 0, 50);
    await sites.recordScanScores(stack.db, quick);
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({
        domain: "brew.example",
        name: "brew.example",
        latestSeo: 50,
        latestMode: "quick",
        latestScanId: quick.id,
        lastScanAt: at(0),
      }),
    );

    const full = await completed(user.id, "full", 10, 70);
    await sites.recordScanScores(stack.db, full);
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({
        latestSeo: 70,
        latestAeo: 60,
        latestGeo: 50,
        latestMode: "full",
        latestScanId: full.id,
        latestScoresAt: at(10),
        lastScanAt: at(10),
      }),
    );

    // a later quick scan moves last_scan_at only
    const laterQuick = await completed(user.id, "quick", 20, 90);
    await sites.recordScanScores(stack.db, laterQuick);
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ latestSeo: 70, latestMode: "full", latestScanId: full.id, lastScanAt: at(20) }),
    );

    // a full scan that completed earlier but is stored later (out of order) changes nothing
    const olderFull = await completed(user.id, "full", 5, 30);
    await sites.recordScanScores(stack.db, olderFull);
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ latestSeo: 70, latestScanId: full.id, lastScanAt: at(20) }),
    );

    // storing the same scan again changes nothing
    const before = await siteOf(user.id);
    await sites.recordScanScores(stack.db, full);
    await sites.recordScanScores(stack.db, laterQuick);
    expect(await siteOf(user.id)).toEqual({ ...before, updatedAt: expect.any(Date) });

    const laterFull = await completed(user.id, "full", 30, 80);
    await sites.recordScanScores(stack.db, laterFull);
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({
        latestSeo: 80,
        latestScanId: laterFull.id,
        latestScoresAt: at(30),
        lastScanAt: at(30),
      }),
    );
    expect(await stack.db.site.count({ where: { userId: user.id } })).toBe(1);
  });

  it("keeps a full audit's site scores over later scans, until a later full audit", async () => {
    const { user } = await createAccount(stack.db);
    await sites.recordScanScores(stack.db, await completed(user.id, "full", 0, 50));
    const site = await siteOf(user.id);
    const audit = randomUUID();
    await sites.recordAuditScores(stack.db, {
      id: audit,
      siteId: site.id,
      scores: { seo: 61, aeo: 62, geo: 63 },
      completedAt: at(10),
    });
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ latestSeo: 61, latestMode: "full", latestScanId: null, latestAuditId: audit }),
    );
    // a later full scan of one page moves last_scan_at, not the site-wide scores
    await sites.recordScanScores(stack.db, await completed(user.id, "full", 20, 90));
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ latestSeo: 61, latestAuditId: audit, lastScanAt: at(20) }),
    );
    // an audit that completed earlier, stored later, changes nothing; a later one replaces them
    await sites.recordAuditScores(stack.db, {
      id: randomUUID(),
      siteId: site.id,
      scores: { seo: 1, aeo: 1, geo: 1 },
      completedAt: at(5),
    });
    expect(await siteOf(user.id)).toEqual(expect.objectContaining({ latestSeo: 61, latestAuditId: audit }));
    const later = randomUUID();
    await sites.recordAuditScores(stack.db, {
      id: later,
      siteId: site.id,
      scores: { seo: 71, aeo: 72, geo: 73 },
      completedAt: at(30),
    });
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ latestSeo: 71, latestAuditId: later, latestScoresAt: at(30), lastScanAt: at(30) }),
    );
  });

  it("keeps a site's name and verification, and scores a site that had none", async () => {
    const { user } = await createAccount(stack.db);
    await stack.db.site.create({
      data: { userId: user.id, url: "https://brew.example", domain: "brew.example", name: "Brew", isVerified: true },
    });
    await sites.recordScanScores(stack.db, await completed(user.id, "quick", 0, 40));
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ name: "Brew", isVerified: true, latestSeo: 40, latestMode: "quick" }),
    );
  });

  it("creates one site when scans of a new origin complete at once", async () => {
    const { user } = await createAccount(stack.db);
    const scans = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((minute) => completed(user.id, minute % 2 ? "full" : "quick", minute, 40 + minute)),
    );
    await Promise.all(scans.map((scan) => sites.recordScanScores(stack.db, scan)));
    expect(await siteOf(user.id)).toEqual(
      expect.objectContaining({ latestSeo: 45, latestMode: "full", latestScanId: scans[5]?.id, lastScanAt: at(5) }),
    );
    expect(await stack.db.site.count({ where: { userId: user.id } })).toBe(1);
  });
});
