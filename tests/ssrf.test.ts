import type { IncomingMessage, ServerResponse } from "node:http";
import { parseAllowlist, parsePorts } from "@scan/platform";
import { fetchOnce, resolveChromiumPath, startEgressProxy } from "@scan/scanner";
import { chromium } from "playwright-core";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { createTestDatabase, stopContainers, type TestDatabase, testRedisUrl } from "./support/services";
import { api, type Stack, startStack } from "./support/stack";

/**
 * The scanner must never become a way into the network it runs in. Every private target is
 * refused at request time when the URL shows it, and at fetch time (redirects, subresources,
 * DNS answers) when it does not. "internal" below is a server on 127.0.0.1 that is NOT on the
 * allowlist: it stands for every private service, and no test may make it see a request.
 */

type Envelope = { ok?: boolean; data?: any; error?: { code: string; message: string }; code?: string };

describe("SSRF: private targets are refused", () => {
  let site: FixtureServer;
  let internal: FixtureServer;
  let internalHits: string[];
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    internalHits = [];
    internal = await startFixtureServer({}, (req: IncomingMessage, res: ServerResponse) => {
      internalHits.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/html" }).end("<title>secret</title>");
    });
    const secret = internal.url("/secret");
    site = await startFixtureServer({
      "/to-internal": (_req, res) => res.writeHead(302, { location: secret }).end(),
      "/to-metadata": (_req, res) => res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
      "/to-decimal-loopback": (_req, res) => res.writeHead(302, { location: "http://2130706433/" }).end(),
      "/subresources": html(`<!doctype html><html lang="en"><head><title>A page that reaches inwards</title>
        <script src="${internal.url("/script.js")}"></script>
        <link rel="preload" as="fetch" href="${internal.url("/preload")}">
        </head><body><h1>Inward</h1>
        <iframe src="${internal.url("/frame")}"></iframe>
        <iframe src="http://localhost:${new URL(secret).port}/frame-by-name"></iframe>
        <script>fetch(${JSON.stringify(internal.url("/fetch"))}).catch(() => {});
          new Image().src = ${JSON.stringify(internal.url("/pixel"))};</script>
        <p>${"Words that make this a page of content. ".repeat(20)}</p></body></html>`),
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: await testRedisUrl(),
      allowlist: [site.hostPort],
      // every case is an anonymous request from this one address
      env: { SCAN_TIMEOUT_MS: "8000", SCAN_WAIT_MS: "20000", RATE_LIMIT_ANONYMOUS: "100000" },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await internal?.close();
    await database?.drop();
    await stopContainers();
  });

  afterEach(() => {
    expect(internalHits).toEqual([]);
  });

  const scan = (url: string, form: "A" | "B" = "A", mode = "quick") =>
    api(stack.gateway.url, "/api/v1/scan", { body: { url, mode }, headers: { "x-response-form": form } });

  it.each([
    ["loopback on another port", () => internal.url("/secret")],
    ["localhost by name", () => `http://localhost:${new URL(internal.origin).port}/`],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["private 10/8", () => "http://10.0.0.1/"],
    ["private 172.16/12", () => "http://172.16.5.4/"],
    ["private 192.168/16", () => "http://192.168.1.1/"],
    ["carrier-grade NAT", () => "http://100.64.0.1/"],
    ["unspecified 0.0.0.0", () => "http://0.0.0.0/"],
    ["0 as a host", () => "http://0/"],
    ["decimal loopback", () => "http://2130706433/"],
    ["octal loopback", () => "http://0177.0.0.1/"],
    ["hex loopback", () => "http://0x7f000001/"],
    ["mixed hex loopback", () => "http://0x7f.0.0.1/"],
    ["IPv6 loopback", () => "http://[::1]/"],
    ["IPv6 unique-local", () => "http://[fd00::1]/"],
    ["IPv6 link-local", () => "http://[fe80::1]/"],
    ["IPv4-mapped IPv6 loopback", () => "http://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped IPv6 metadata", () => "http://[::ffff:a9fe:a9fe]/"],
    ["a port that is not a web port", () => "http://example.com:6379/"],
    ["ftp", () => "ftp://example.com/"],
    ["file", () => "file:///etc/passwd"],
    ["gopher", () => "gopher://127.0.0.1:6379/_INFO"],
  ])("refuses %s at request time in both forms", async (_name, target) => {
    const a = await scan(target());
    expect(a.status).toBe(400);
    expect((a.body as Envelope).error?.code).toBe("invalid_request");
    const b = await scan(target(), "B");
    expect(b.status).toBe(400);
    expect(b.body).toEqual({ error: expect.any(String), code: "VALIDATION_ERROR" });
  });

  it("refuses a scheme-less private host in Form B", async () => {
    const response = await scan("169.254.169.254/latest/meta-data", "B");
    expect(response.status).toBe(400);
    expect((response.body as Envelope).code).toBe("VALIDATION_ERROR");
  });

  it.each([
    ["loopback", "/to-internal"],
    ["cloud metadata", "/to-metadata"],
    ["decimal loopback", "/to-decimal-loopback"],
  ])("fails a scan whose page redirects to %s, without following it", async (_name, path) => {
    const response = await scan(site.url(path));
    expect(response.status).toBe(502);
    expect((response.body as Envelope).error).toEqual(
      expect.objectContaining({ code: "upstream_failure", message: expect.stringMatching(/refused/) }),
    );
  });

  it("blocks every request the page's own scripts, frames and links make to a private address", async () => {
    const response = await scan(site.url("/subresources"), "A", "full");
    expect(response.status).toBe(200);
    expect((response.body as Envelope).data.rendered).toBe(true);
    // afterEach: the internal server saw nothing
  });
});

describe("SSRF: connections go where the vetting looked", () => {
  let internal: FixtureServer;
  let hits: number;

  beforeAll(async () => {
    hits = 0;
    internal = await startFixtureServer({}, (_req, res) => {
      hits += 1;
      res.writeHead(200, { "content-type": "text/plain" }).end("inside");
    });
  });
  afterAll(async () => {
    await internal?.close();
  });
  beforeEach(() => {
    hits = 0;
  });

  const port = () => Number(new URL(internal.origin).port);
  const limits = () => ({ deadline: Date.now() + 3_000, maxBytes: 1024 });

  // the socket goes to the address the vetting saw; the name is never resolved again, so a
  // DNS answer that changes after vetting (rebinding) cannot point the connection inside
  it("connects to the vetted address and never resolves the name again", async () => {
    let lookups = 0;
    const vetting = async () => {
      lookups += 1;
      return ["127.0.0.1"];
    };
    const policy = {
      allowlist: parseAllowlist(`pinned.test:${port()}`),
      resolve: vetting,
      resolveSubresource: vetting,
      ports: parsePorts("80,443"),
      userAgent: "test",
    };
    // pinned.test has no DNS record anywhere: only the pinned address can make this work
    const response = await fetchOnce(new URL(`http://pinned.test:${port()}/`), policy, limits());
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("inside");
    expect(hits).toBe(1);
    expect(lookups).toBe(1);
  });

  it("keeps a browser that bypasses request vetting out of private addresses through the egress proxy", async () => {
    const site = await startFixtureServer({
      "/": html(`<!doctype html><title>t</title><script src="${internal.url("/script.js")}"></script>
        <iframe src="http://localhost:${port()}/frame"></iframe><p>page</p>`),
    });
    const egress = startEgressProxy({
      allowlist: parseAllowlist(site.hostPort),
      resolve: async (host) => (host === "localhost" ? ["127.0.0.1"] : []),
      ports: parsePorts("*"),
    });
    const args = [`--proxy-server=${await egress.url}`, "--proxy-bypass-list=<-loopback>"];
    if (process.getuid?.() === 0) args.push("--no-sandbox");
    const browser = await chromium.launch({ executablePath: resolveChromiumPath(undefined), args });
    try {
      const page = await browser.newPage();
      // no request interception at all: the proxy alone decides
      const response = await page.goto(site.url("/"), { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe("t");
      expect(hits).toBe(0);
      expect(egress.refused).toBeGreaterThanOrEqual(2);
    } finally {
      await browser.close();
      await egress.close();
      await site.close();
    }
  });
});
