import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_SCAN_PORTS } from "@scan/platform";
import { createRedirectFollower } from "@scan/worker";
import { createAccount } from "./support/accounts";
import type { EngineServers } from "./support/engine-servers";
import { eventually } from "./support/outages";
import { stopContainers } from "./support/services";
import { api, type Stack } from "./support/stack";
import { startVisibilityStack, type VisibilityStack } from "./support/visibility-stack";

/**
 * Gemini cites every source through a redirect link of Google's: the worker follows each link
 * once, under the address policy, and stores the citation as the page it leads to, so the
 * brand's cited page, its citation track and the cited-pages view name the page, not the link.
 */

type Json = Record<string, any>;

describe("citations behind an engine's redirect links", () => {
  describe("following one link", () => {
    let server: Server;
    let origin = "";
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === "/hop") return void res.writeHead(302, { location: "https://acme.com/pricing" }).end();
        if (req.url === "/relative") return void res.writeHead(301, { location: "/landing?x=1" }).end();
        if (req.url === "/script") return void res.writeHead(302, { location: "javascript:alert(1)" }).end();
        res.writeHead(200, { "content-type": "text/html" }).end("<p>no redirect</p>");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    const policy = (allowlist: string[]) => ({
      allowlist: new Set(allowlist),
      resolve: async () => [],
      resolveSubresource: async () => [],
      ports: DEFAULT_SCAN_PORTS,
      userAgent: "scan-test",
    });

    it("answers the Location of a redirect, resolved against the link, and nothing for any other answer", async () => {
      const follow = createRedirectFollower(policy([new URL(origin).host]), 2_000);
      expect(await follow(`${origin}/hop`)).toBe("https://acme.com/pricing");
      expect(await follow(`${origin}/relative`)).toBe(`${origin}/landing?x=1`);
      expect(await follow(`${origin}/script`)).toBeNull();
      expect(await follow(`${origin}/page`)).toBeNull();
    });

    it("follows no link the address policy refuses (loopback that nobody allowed)", async () => {
      const follow = createRedirectFollower(policy([]), 2_000);
      expect(await follow(`${origin}/hop`)).toBeNull();
    });
  });

  describe("a run asking Gemini", () => {
    let visibility: VisibilityStack;
    let servers: EngineServers;
    let stack: Stack;

    beforeAll(async () => {
      visibility = await startVisibilityStack({
        vendors: ["gemini"],
        allowlist: [],
        // the local Gemini server's own address stands for Google's redirect host, and is allowed
        workerEnv: (engines) => {
          const gemini = new URL(engines.gemini.baseUrl).host;
          return { VISIBILITY_REDIRECT_HOSTS: gemini, SCAN_ALLOWLIST: gemini };
        },
      });
      ({ servers, stack } = visibility);
    }, 120_000);

    afterAll(async () => {
      await visibility?.close();
      await stopContainers();
    });

    it("stores each cited page as the page its link leads to, with the brand's page in its citation track", async () => {
      const owner = await createAccount(stack.db, "agency");
      const call = (method: string, path: string, body?: unknown) =>
        api(stack.gateway.url, path, {
          method,
          headers: { "x-api-key": owner.key },
          ...(body === undefined ? {} : { body }),
        });
      const site = await call("POST", "/api/v1/sites", { url: "https://acme.com", name: "Acme" });
      expect(site.status).toBe(201);
      const siteId = (site.body as Json).data.id as string;
      expect(
        (
          await call("PUT", `/api/v1/sites/${siteId}/visibility`, {
            brand_names: ["Acme"],
            brand_domains: ["acme.com"],
            samples_per_prompt: 2,
            engines: ["gemini"],
          })
        ).status,
      ).toBe(200);
      const text =
        "Which tracker suits a small team? cites: https://www.acme.com/pricing?utm_source=x https://globex.io/compare";
      expect((await call("POST", `/api/v1/sites/${siteId}/prompts`, { text })).status).toBe(201);
      const started = await call("POST", `/api/v1/sites/${siteId}/visibility/runs`);
      expect(started.status).toBe(202);
      const runId = (started.body as Json).data.id as string;
      await eventually(
        async () => (await stack.db.visibilityRun.findUniqueOrThrow({ where: { id: runId } })).status === "completed",
        60_000,
        "the run to complete",
      );

      const samples = await call("GET", `/api/v1/visibility/runs/${runId}/samples?limit=100`);
      expect(samples.status).toBe(200);
      const answers = (samples.body as Json).data as Json[];
      expect(answers).toHaveLength(2);
      for (const answer of answers) {
        expect(answer.citations.map((c: Json) => [c.position, c.url, c.domain])).toEqual([
          [1, "https://www.acme.com/pricing", "acme.com"],
          [2, "https://globex.io/compare", "globex.io"],
        ]);
      }
      // each link of each answer followed once, and no page behind a link was fetched
      const hops = servers.gemini.requests.filter((r) => r.method === "GET");
      expect(hops).toHaveLength(4);
      expect(hops.every((r) => r.path.startsWith("/grounding-api-redirect/"))).toBe(true);

      const tracks = await call("GET", `/api/v1/citations?site_id=${siteId}&limit=100`);
      expect((tracks.body as Json).data).toHaveLength(2);
      for (const track of (tracks.body as Json).data)
        expect(track).toMatchObject({ platform: "gemini", cited: true, citation_url: "https://www.acme.com/pricing" });
    }, 120_000);
  });
});
