import type { ServerResponse } from "node:http";
import { aiSearchAccess, indexable, preparePage, robotsRules, robotsTxt } from "@scan/checks";
import { snapshotOf } from "@scan/checks/testing";
import type { TextResource } from "@scan/contract";
import { parseAllowlist, parsePorts } from "@scan/platform";
import { type FetchPolicy, fetchRobotsTxt } from "@scan/scanner";
import { type FixtureServer, type Handler, hang, html, startFixtureServer, text } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * RFC 9309 section 2.3.1 where the worker fetches robots.txt: a 2xx is parsed; a 4xx, or a
 * file still redirecting after five redirects, is "unavailable" (crawlers may fetch
 * everything); a 5xx, a 429 or no answer is "unreachable" (crawlers must assume everything is
 * disallowed). Each case is a server on 127.0.0.1 that answers /robots.txt its way, fetched by
 * the worker's own robots.txt fetch and judged by the checks.
 */

const RULES = "User-agent: *\nDisallow: /private/\n";
const PAGE = `<!doctype html><html lang="en"><head><title>A page governed by its robots.txt</title></head>
<body><main><h1>Governed</h1><p>${"Words of content for a real page. ".repeat(30)}</p></main></body></html>`;

/** /robots.txt redirects `hops` times, hop by hop, to a file holding RULES. */
const redirecting = (hops: number): Record<string, Handler> => {
  const routes: Record<string, Handler> = { "/rules.txt": text(RULES) };
  for (let hop = 0; hop < hops; hop++) {
    const from = hop === 0 ? "/robots.txt" : `/hop/${hop}`;
    const to = hop === hops - 1 ? "/rules.txt" : `/hop/${hop + 1}`;
    routes[from] = (_req, res: ServerResponse) => res.writeHead(301, { location: to }).end();
  }
  return routes;
};

const answering = (status: number): Record<string, Handler> => ({ "/robots.txt": text(RULES, status) });

type Expected = {
  state: "parsed" | "unavailable" | "unreachable";
  status: number;
  /** what the robots-txt check says, in part */
  says: string | RegExp;
  tooManyRedirects?: boolean;
};

const CASES: [string, Record<string, Handler>, Expected][] = [
  [
    "200",
    answering(200),
    { state: "parsed", status: 200, says: "robots.txt answered 200 and all 2 directives parse." },
  ],
  ["404", answering(404), { state: "unavailable", status: 404, says: "There is no robots.txt (HTTP 404)" }],
  ["410", answering(410), { state: "unavailable", status: 410, says: "There is no robots.txt (HTTP 410)" }],
  ["429", answering(429), { state: "unreachable", status: 429, says: "robots.txt answered HTTP 429" }],
  ["500", answering(500), { state: "unreachable", status: 500, says: "robots.txt answered HTTP 500" }],
  ["503", answering(503), { state: "unreachable", status: 503, says: "robots.txt answered HTTP 503" }],
  [
    "a timeout",
    { "/robots.txt": hang },
    { state: "unreachable", status: 0, says: /^robots\.txt could not be fetched \(.* did not answer in time\)/ },
  ],
  ["3 redirects", redirecting(3), { state: "parsed", status: 200, says: "all 2 directives parse" }],
  ["5 redirects", redirecting(5), { state: "parsed", status: 200, says: "all 2 directives parse" }],
  [
    "6 redirects",
    redirecting(6),
    {
      state: "unavailable",
      status: 301,
      tooManyRedirects: true,
      says: "robots.txt redirected more than five times; crawlers may fetch everything.",
    },
  ],
];

const policyFor = (servers: readonly FixtureServer[]): FetchPolicy => ({
  allowlist: parseAllowlist(servers.map((server) => server.hostPort).join(",")),
  resolve: async () => ["127.0.0.1"],
  resolveSubresource: async () => ["127.0.0.1"],
  ports: parsePorts("*"),
  userAgent: "aeo-scan robots test",
});

const judgeWith = (origin: string, robots: TextResource) => {
  const url = `${origin}/private/page`;
  const page = preparePage(snapshotOf(PAGE, { requestedUrl: url, finalUrl: url, robotsTxt: robots }), new Date());
  return {
    rules: robotsRules(page),
    robotsTxt: robotsTxt.run(page),
    aiSearchAccess: aiSearchAccess.run(page),
    indexable: indexable.run(page),
  };
};

describe("robots.txt status handling in the worker's fetch (RFC 9309 section 2.3.1)", () => {
  const servers = new Map<string, FixtureServer>();

  beforeAll(async () => {
    for (const [name, routes] of CASES) servers.set(name, await startFixtureServer(routes));
  });

  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.close()));
  });

  it.each(CASES)("robots.txt: %s", async (name, _routes, expected) => {
    const server = servers.get(name) as FixtureServer;
    const timeout = name === "a timeout";
    const resource = await fetchRobotsTxt(server.origin, policyFor([server]), Date.now() + (timeout ? 1_000 : 10_000));
    expect(resource.status).toBe(expected.status);
    expect(resource.tooManyRedirects ?? false).toBe(expected.tooManyRedirects ?? false);

    const judged = judgeWith(server.origin, resource);
    expect(judged.rules.state).toBe(expected.state);
    if (typeof expected.says === "string") expect(judged.robotsTxt.description).toContain(expected.says);
    else expect(judged.robotsTxt.description).toMatch(expected.says);

    // what the state means for crawlers: the rules, everything, or nothing
    const search = judged.aiSearchAccess;
    if (expected.state === "parsed") {
      expect(judged.rules.allows("OAI-SearchBot")).toBe(false);
      expect(judged.rules.allows("OAI-SearchBot", `${server.origin}/public`)).toBe(true);
      expect(search.status).toBe("fail");
      expect(search.description).toMatch(/^robots\.txt \(status 200\): every AI search and user agent is blocked/);
      expect(judged.indexable.description).toContain("robots.txt disallows /private/page for Googlebot (line 2)");
    } else if (expected.state === "unavailable") {
      expect(judged.rules.allows("OAI-SearchBot")).toBe(true);
      expect(search.status).toBe("pass");
      expect(search.description).toMatch(
        /under RFC 9309 an unavailable robots\.txt \(4xx, or more than five redirects\)/,
      );
      expect(judged.robotsTxt.status).toBe("skip");
      expect(judged.indexable.status).toBe("pass");
    } else {
      expect(judged.rules.allows("OAI-SearchBot", `${server.origin}/public`)).toBe(false);
      expect(search.status).toBe("fail");
      expect(search.description).toMatch(/under RFC 9309 an unreachable robots\.txt \(5xx, 429 or no answer\)/);
      expect(search.fix).toMatch(/answer 200/);
      expect(judged.robotsTxt.status).toBe("fail");
      expect(judged.indexable.description).toMatch(
        /robots\.txt could not be read \(it (answered \d+|could not be fetched)/,
      );
    }
  });

  it("reads no answer at all (connection refused) as unreachable", async () => {
    const closed = await startFixtureServer({});
    await closed.close();
    const resource = await fetchRobotsTxt(closed.origin, policyFor([closed]), Date.now() + 5_000);
    expect(resource.status).toBe(0);
    expect(resource.error).toMatch(/could not be fetched/);
    expect(judgeWith(closed.origin, resource).rules.state).toBe("unreachable");
  });
});

describe("robots.txt status handling through a scan (gateway → worker → checks)", () => {
  const sites = new Map<string, FixtureServer>();
  let database: TestDatabase;
  let stack: Stack;

  const SCANNED: [string, Record<string, Handler>][] = [
    ["6 redirects", redirecting(6)],
    ["503", answering(503)],
    ["3 redirects", redirecting(3)],
  ];

  beforeAll(async () => {
    for (const [name, routes] of SCANNED) {
      sites.set(name, await startFixtureServer({ ...routes, "/private/page": html(PAGE) }));
    }
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [...sites.values()].map((site) => site.hostPort),
      env: { SCAN_TIMEOUT_MS: "8000", SCAN_WAIT_MS: "20000", RATE_LIMIT_ANONYMOUS: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await Promise.all([...sites.values()].map((site) => site.close()));
    await database?.drop();
    await stopContainers();
  });

  const scan = async (name: string) => {
    const site = sites.get(name) as FixtureServer;
    const response = await api(stack.gateway.url, "/api/v1/scan", {
      body: { url: site.url("/private/page"), mode: "quick" },
    });
    expect(response.status).toBe(200);
    const checks = (response.body as { data: { checks: { id: string; status: string; description: string }[] } }).data
      .checks;
    return Object.fromEntries(checks.map((check) => [check.id, check]));
  };

  it("gives every crawler the site when robots.txt redirects more than five times, and says why", async () => {
    const checks = await scan("6 redirects");
    expect(checks["robots-txt"]?.status).toBe("skip");
    expect(checks["robots-txt"]?.description).toBe(
      "robots.txt redirected more than five times; crawlers may fetch everything.",
    );
    expect(checks["ai-search-access"]?.status).toBe("pass");
    expect(checks["ai-search-access"]?.description).toMatch(
      /^robots\.txt redirected more than five times; under RFC 9309/,
    );
  });

  it("keeps every crawler out while robots.txt answers 503, and says why", async () => {
    const checks = await scan("503");
    expect(checks["robots-txt"]?.status).toBe("fail");
    expect(checks["ai-search-access"]?.status).toBe("fail");
    expect(checks["ai-search-access"]?.description).toMatch(/^robots\.txt answered 503; under RFC 9309 an unreachable/);
  });

  it("follows three redirects to the rules and obeys them", async () => {
    const checks = await scan("3 redirects");
    expect(checks["robots-txt"]?.status).toBe("pass");
    expect(checks["ai-search-access"]?.status).toBe("fail");
    expect(checks.indexable?.status).toBe("fail");
    expect(checks.indexable?.description).toContain("robots.txt disallows /private/page for Googlebot (line 2)");
  });
});
