import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createAccount, type TestAccount } from "./support/accounts";
import { type FixtureServer, html, startFixtureServer, text } from "./support/fixture-server";
import { eventually } from "./support/prometheus";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * Async scans and callbacks: `Prefer: respond-async` answers 202 at once; the finished scan is
 * POSTed to callback_url, signed as docs/api.md documents, retried with backoff, and every
 * attempt is visible on GET /api/v1/scan/:id. Callback URLs obey the scan-target rules.
 * Anonymous callers may scan asynchronously, and any API key reads the scan at the Location;
 * a key holder's scan, callback included, is readable by its owner only.
 */

// scans and deliveries with retries; the machine may be busy
jest.setTimeout(300_000);

const SECRET = "whsec_0123456789abcdef0123456789abcdef";

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Callbacks: a page scanned asynchronously</title>
<meta name="description" content="The page the callback tests scan; its result is delivered to a receiver that the test runs itself.">
</head><body><main><h1>Callbacks</h1><p>Delivered by POST.</p></main></body></html>`;

type Delivery = { path: string; headers: IncomingMessage["headers"]; raw: Buffer };

/**
 * The recipe of docs/api.md, written out independently of the service's code: HMAC-SHA256 keyed
 * with the secret over `<t>.<raw body>`, hex, compared in constant time, timestamp fresh.
 */
const verifyAsDocumented = (header: string | undefined, raw: Buffer, secret = SECRET): boolean => {
  const fields = new Map((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = fields.get("t");
  const v1 = fields.get("v1");
  if (!t || !v1 || !/^\d+$/.test(t)) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(raw).digest();
  const given = Buffer.from(v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
};

type Envelope = { ok?: boolean; data?: any; error?: any; code?: string };
const envelope = (response: { body: unknown }) => response.body as Envelope;

// after every describe block: the later ones reuse the containers
afterAll(async () => {
  await stopContainers();
});

describe("async scans and signed callbacks", () => {
  let site: FixtureServer;
  let receiver: FixtureServer;
  let database: TestDatabase;
  let stack: Stack;
  let base: string;
  /** submits the keyed scans and reads them */
  let owner: TestAccount;
  /** another user, with a free key */
  let reader: TestAccount;
  const deliveries: Delivery[] = [];
  const waiting: Array<{ path: string; count: number; resolve: () => void }> = [];
  const flakyFailures = new Map<string, number>();

  /** Resolves once `count` deliveries have reached this path. */
  const deliveredTo = (path: string, count = 1) =>
    new Promise<void>((resolve) => {
      if (deliveries.filter((d) => d.path === path).length >= count) return resolve();
      waiting.push({ path, count, resolve });
    });

  const receive = (status: (path: string) => number) => (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      deliveries.push({ path, headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(status(path)).end();
      for (const waiter of [...waiting]) {
        if (waiter.path === path && deliveries.filter((d) => d.path === path).length >= waiter.count) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      "/page": html(PAGE),
      "/broken": html("<h1>down</h1>", 503),
      "/robots.txt": text("User-agent: *\nAllow: /\n"),
    });
    receiver = await startFixtureServer(
      {},
      receive((path) => {
        if (path.startsWith("/flaky")) {
          // fails twice, then accepts
          const failures = flakyFailures.get(path) ?? 0;
          flakyFailures.set(path, failures + 1);
          return failures < 2 ? 500 : 200;
        }
        if (path.startsWith("/down")) return 503;
        return 204;
      }),
    );
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort, receiver.hostPort],
      env: {
        WEBHOOK_SECRET: SECRET,
        WEBHOOK_ATTEMPTS: "3",
        WEBHOOK_BACKOFF_MS: "50",
        SCAN_TIMEOUT_MS: "5000",
        // the tests read scans every 50 ms while they wait; the free plan's hourly 10 would stop them
        RATE_LIMIT_FREE: "100000",
      },
    });
    base = stack.gateway.url;
    owner = await createAccount(stack.db);
    reader = await createAccount(stack.db);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await receiver?.close();
    await database?.drop();
  });

  const keyed = (account: TestAccount | null): Record<string, string> =>
    account ? { authorization: `Bearer ${account.key}` } : {};

  /** POST /api/v1/scan as the owner, or anonymously with `as: null` */
  const submit = (
    body: Record<string, unknown>,
    headers: Record<string, string> = { prefer: "respond-async" },
    as: TestAccount | null = owner,
  ) => api(base, "/api/v1/scan", { body: { mode: "quick", ...body }, headers: { ...headers, ...keyed(as) } });

  const read = (path: string, as: TestAccount | null = owner) => api(base, path, { headers: keyed(as) });

  const callbackOf = async (id: string, state: string) =>
    eventually(
      async () => {
        const stored = envelope(await read(`/api/v1/scan/${id}`)).data;
        return stored.callback?.state === state ? stored : undefined;
      },
      { what: `callback ${state}` },
    );

  it("answers an anonymous caller 202 at once with the id and a Location link that reads the scan as it completes", async () => {
    const response = await submit(
      { url: site.url("/page") },
      { prefer: "respond-async", "x-request-id": "async-1" },
      null,
    );
    // at once: queued, not waited for (a wait would have answered 200 with the result)
    expect(response.status).toBe(202);
    const { data } = envelope(response);
    expect(data).toEqual({ id: expect.any(String), url: site.url("/page"), mode: "quick", status: "queued" });
    const location = response.headers.get("location");
    expect(location).toMatch(new RegExp(`^/api/v1/scan/${data.id}\\?access=[A-Za-z0-9_-]{43}$`));
    expect(response.headers.get("preference-applied")).toBe("respond-async");
    expect((await stack.db.scan.findUniqueOrThrow({ where: { id: data.id } })).userId).toBeNull();
    // without the link's token an anonymous caller is asked for a key, and another user's key finds nothing
    const anonymous = await read(`/api/v1/scan/${data.id}`, null);
    expect(anonymous.status).toBe(401);
    expect(envelope(anonymous).error.code).toBe("unauthenticated");
    expect((await read(`/api/v1/scan/${data.id}`, reader)).status).toBe(404);
    // the link itself, with no key, reads the scan as it completes
    const done = await eventually(
      async () => {
        const stored = envelope(await read(location!, null)).data;
        return stored.status === "completed" ? stored : undefined;
      },
      { what: "the scan to complete" },
    );
    expect(done.id).toBe(data.id);
    expect(done.scores.overall).toEqual(expect.any(Number));
    expect(done.callback).toBeUndefined();
  });

  it("answers a key holder 202 at once too, and only that user reads the scan", async () => {
    const response = await submit({ url: site.url("/page") });
    expect(response.status).toBe(202);
    expect(response.headers.get("preference-applied")).toBe("respond-async");
    const { id } = envelope(response).data;
    expect((await stack.db.scan.findUniqueOrThrow({ where: { id } })).userId).toBe(owner.user.id);
    const done = await eventually(
      async () => {
        const stored = envelope(await read(response.headers.get("location")!)).data;
        return stored.status === "completed" ? stored : undefined;
      },
      { what: "the scan to complete" },
    );
    expect(done.id).toBe(id);
    const other = await read(`/api/v1/scan/${id}`, reader);
    expect(other.status).toBe(404);
    expect(envelope(other).error.code).toBe("not_found");
  });

  it("POSTs the finished scan to callback_url, signed with the documented recipe", async () => {
    const response = await submit(
      { url: site.url("/page"), callback_url: receiver.url("/hooks/signed?site=1") },
      { prefer: "respond-async", "x-request-id": "callback-1" },
    );
    expect(response.status).toBe(202);
    const id = envelope(response).data.id;
    await deliveredTo("/hooks/signed");
    const delivery = deliveries.find((d) => d.path === "/hooks/signed")!;

    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["x-webhook-id"]).toBe(id);
    expect(delivery.headers["x-webhook-attempt"]).toBe("1");
    expect(delivery.headers["x-request-id"]).toBe("callback-1");
    const signature = delivery.headers["x-signature"] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyAsDocumented(signature, delivery.raw)).toBe(true);

    // one changed byte, another secret, or the signature moved to another body: refused
    const tampered = Buffer.from(delivery.raw.toString("utf8").replace('"scan.completed"', '"scan.failed"'));
    expect(tampered.equals(delivery.raw)).toBe(false);
    expect(verifyAsDocumented(signature, tampered)).toBe(false);
    expect(verifyAsDocumented(signature, delivery.raw, "whsec_another_secret_entirely_0000")).toBe(false);

    const body = JSON.parse(delivery.raw.toString("utf8"));
    expect(body).toMatchObject({ event: "scan.completed", scan_id: id });
    expect(body.data).toMatchObject({ id, status: "completed", url: site.url("/page"), mode: "quick" });
    expect(body.data.scores).toEqual(expect.objectContaining({ overall: expect.any(Number) }));
    expect(body.data.checks).toHaveLength(20);

    const stored = await callbackOf(id, "delivered");
    expect(stored.callback).toEqual({
      url: receiver.url("/hooks/signed?site=1"),
      state: "delivered",
      attempts: [
        {
          attempt: 1,
          at: expect.any(String),
          ok: true,
          status_code: 204,
          error: null,
          duration_ms: expect.any(Number),
          next_attempt_at: null,
        },
      ],
    });
    // the stored result and the delivered one are the same scan
    expect(body.data.scores).toEqual(stored.scores);
    // the callback URL (and any token in it) is shown to its owner only
    const other = await read(`/api/v1/scan/${id}`, reader);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain("/hooks/signed");
  });

  it("retries a failing receiver with backoff and records every attempt", async () => {
    const id = envelope(await submit({ url: site.url("/page"), callback_url: receiver.url("/flaky/1") })).data.id;
    await deliveredTo("/flaky/1", 3);
    const stored = await callbackOf(id, "delivered");
    const attempts = stored.callback.attempts;
    expect(attempts.map((a: any) => [a.attempt, a.ok, a.status_code])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ]);
    expect(attempts[0].error).toBe("HTTP 500");
    // backoff doubles: the retry after attempt n is due WEBHOOK_BACKOFF_MS · 2^(n−1) after it
    for (const [index, delay] of [
      [0, 50],
      [1, 100],
    ] as const) {
      const { at, next_attempt_at } = attempts[index];
      expect(Date.parse(next_attempt_at) - Date.parse(at)).toBeGreaterThanOrEqual(delay - 5);
      expect(Date.parse(attempts[index + 1].at)).toBeGreaterThanOrEqual(Date.parse(next_attempt_at) - 5);
    }
    expect(attempts[2].next_attempt_at).toBeNull();
    const headers = deliveries.filter((d) => d.path === "/flaky/1").map((d) => d.headers["x-webhook-attempt"]);
    expect(headers).toEqual(["1", "2", "3"]);
  });

  it("gives up after the last attempt and says so on the scan", async () => {
    const id = envelope(await submit({ url: site.url("/page"), callback_url: receiver.url("/down/1") })).data.id;
    const stored = await callbackOf(id, "failed");
    expect(stored.callback.attempts).toHaveLength(3);
    expect(stored.callback.attempts.every((a: any) => a.ok === false && a.status_code === 503)).toBe(true);
    expect(stored.callback.attempts[2].next_attempt_at).toBeNull();
  });

  it("delivers failed scans too, as scan.failed", async () => {
    const id = envelope(await submit({ url: site.url("/broken"), callback_url: receiver.url("/hooks/failed") })).data
      .id;
    await deliveredTo("/hooks/failed");
    const delivery = deliveries.find((d) => d.path === "/hooks/failed")!;
    expect(verifyAsDocumented(delivery.headers["x-signature"] as string, delivery.raw)).toBe(true);
    const body = JSON.parse(delivery.raw.toString("utf8"));
    expect(body).toMatchObject({ event: "scan.failed", scan_id: id, data: { status: "failed" } });
    expect(body.data.error.code).toBe("upstream_failure");
  });

  it("calls back after a synchronous answer as well", async () => {
    const response = await submit({ url: site.url("/page"), callback_url: receiver.url("/hooks/sync") }, {});
    expect(response.status).toBe(200);
    await deliveredTo("/hooks/sync");
    await callbackOf(envelope(response).data.id, "delivered");
  });

  it("refuses private, loopback and malformed callback URLs with 400, before anything is queued", async () => {
    const before = await stack.db.scan.count();
    for (const callback_url of [
      "http://10.0.0.7/hook",
      "http://127.0.0.1:9/hook",
      "http://[::1]/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://localhost/hook",
      "ftp://example.com/hook",
      "/relative/hook",
      "https://user:pass@example.com/hook",
    ]) {
      const response = await submit({ url: site.url("/page"), callback_url });
      expect([callback_url, response.status]).toEqual([callback_url, 400]);
      expect(envelope(response).error.code).toBe("invalid_request");
      expect(envelope(response).error.message).toMatch(/^callback_url/);
    }
    const formB = await submit(
      { url: site.url("/page"), callback_url: "http://192.168.1.1/" },
      { prefer: "respond-async", "x-response-form": "B" },
    );
    expect(formB.status).toBe(400);
    expect(envelope(formB).code).toBe("VALIDATION_ERROR");
    expect(await stack.db.scan.count()).toBe(before);
  });

  it("refuses a callback_url that is not a string", async () => {
    const response = await submit({ url: site.url("/page"), callback_url: 42 });
    expect(response.status).toBe(400);
    expect(envelope(response).error.message).toContain("callback_url");
  });
});

describe("callbacks without WEBHOOK_SECRET", () => {
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: ["127.0.0.1:9"],
      worker: false,
    });
  });

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
  });

  it("refuses callback_url with 400 naming the missing setting, rather than sending unsigned callbacks", async () => {
    const response = await api(stack.gateway.url, "/api/v1/scan", {
      body: { url: "http://127.0.0.1:9/", callback_url: "http://127.0.0.1:9/hook" },
      headers: { prefer: "respond-async" },
    });
    expect(response.status).toBe(400);
    expect(envelope(response).error.message).toContain("WEBHOOK_SECRET");
    expect(await stack.db.scan.count()).toBe(0);
  });
});
