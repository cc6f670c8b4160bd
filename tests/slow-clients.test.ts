import { connect, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { createAccount, type TestAccount } from "./support/accounts";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { type Stack, startStack } from "./support/stack";

/**
 * Slow clients (a trickle of headers, or a body that never finishes) are cut off by the
 * gateway's HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS with a 408 in the envelope, while ordinary
 * requests are answered and a legitimate slow upload within the limit is answered. The
 * limits are lowered here so the test takes seconds; production defaults are 10 s and 60 s.
 */

const HEADERS_TIMEOUT_MS = 1_500;
const REQUEST_TIMEOUT_MS = 3_000;
const SLOW_CLIENTS = 300;

type Closed = { answer: string; afterMs: number };

describe("slow clients", () => {
  let database: TestDatabase;
  let stack: Stack;
  let account: TestAccount;
  let host: string;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [],
      worker: false,
      env: {
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        RATE_LIMIT_ANONYMOUS: "1000000",
        RATE_LIMIT_AGENCY: "1000000",
      },
    });
    account = await createAccount(stack.db, "agency");
    const url = new URL(stack.gateway.url);
    host = url.hostname;
    port = Number(url.port);
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await database?.drop();
    await stopContainers();
  });

  /** Opens a connection, writes `head`, then one more byte every 200 ms until the server closes it. */
  const trickle = (head: string, byte: string): Promise<Closed> =>
    new Promise((resolve) => {
      const started = performance.now();
      let answer = "";
      let timer: NodeJS.Timeout | undefined;
      const socket: Socket = connect({ host, port }, () => {
        socket.write(head);
        timer = setInterval(() => {
          if (socket.writable) socket.write(byte);
        }, 200);
      });
      socket.on("data", (chunk) => {
        answer += chunk.toString("latin1");
      });
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearInterval(timer);
        resolve({ answer, afterMs: performance.now() - started });
      });
      // a connection still open long after the limits is the failure the test looks for
      socket.setTimeout(REQUEST_TIMEOUT_MS * 10, () => socket.destroy());
    });

  /** Ordinary requests one after another; the statuses they were answered with. */
  const ordinaryRequests = async (count: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const response = await fetch(`${stack.gateway.url}/healthz`);
      await response.arrayBuffer();
      statuses.push(response.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return statuses;
  };

  it("closes 300 slow connections at their limits, with a 408 in the envelope, and keeps serving others", async () => {
    const slowHeaders = Array.from({ length: SLOW_CLIENTS / 2 }, () =>
      trickle("GET /api/v1/sites HTTP/1.1\r\nHost: x\r\nX-Slow: ", "a"),
    );
    const slowBodies = Array.from({ length: SLOW_CLIENTS / 2 }, () =>
      trickle(
        `POST /api/v1/aeo-2/evaluate HTTP/1.1\r\nHost: x\r\nX-API-Key: ${account.key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"citations":[`,
        " ",
      ),
    );
    const during = await ordinaryRequests(60);
    const headersClosed = await Promise.all(slowHeaders);
    const bodiesClosed = await Promise.all(slowBodies);

    // each is answered 408 and closed, and never before its limit; how soon after it is a
    // question of the machine's load, not of the server's behaviour
    for (const closed of headersClosed) {
      expect(closed.afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
      expect(closed.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(closed.answer).toContain('"code":"request_timeout"');
    }
    for (const closed of bodiesClosed) {
      expect(closed.afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(closed.answer).toMatch(/^HTTP\/1\.1 408 /);
    }
    // ordinary requests are all answered while 300 slow clients hold connections; their latency
    // is the benchmark's to measure
    expect(during).toEqual(Array.from({ length: 60 }, () => 200));
  }, 300_000);

  it("answers a slow upload that arrives within REQUEST_TIMEOUT_MS", async () => {
    const body = JSON.stringify({ citations: [], evidence: [] }).padEnd(2_000, " ");
    const chunks = 10;
    const started = performance.now();
    const answer = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect({ host, port }, async () => {
        socket.write(
          `POST /api/v1/aeo-2/evaluate HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: ${account.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        const size = Math.ceil(body.length / chunks);
        for (let i = 0; i < chunks; i += 1) {
          socket.write(body.slice(i * size, (i + 1) * size));
          // spread over about half the limit: slow, but within it with room for a loaded machine's timers
          await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS / 2 / chunks));
        }
      });
      socket.on("data", (chunk) => {
        text += chunk.toString("utf8");
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    // slow indeed: nine pauses of a tenth of half the limit came before the last chunk
    expect(performance.now() - started).toBeGreaterThanOrEqual(((chunks - 1) * REQUEST_TIMEOUT_MS) / 2 / chunks - 50);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  }, 300_000);
});
