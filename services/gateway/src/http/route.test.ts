import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "@scan/contract";
import express from "express";
import pino from "pino";
import { z } from "zod";
import { pageOf, reply } from "./answer";
import { errorHandler, notFound } from "./errors";
import { jsonBodies } from "./json-body";
import { requestContext } from "./request-context";
import { type Route, route, routerOf } from "./route";

const Item = z.strictObject({ text: z.string() });

/** An app of declared routes with the gateway's own request context, body parser and error handler. */
const serve = async (routes: Route[]): Promise<{ base: string; close: () => Promise<void> }> => {
  const app = express();
  app.use(requestContext("A"));
  app.use(jsonBodies({ routes, limitBytes: 64 }));
  app.use(routerOf(routes));
  app.use(notFound);
  app.use(errorHandler(pino({ level: "silent" })));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("declared routes", () => {
  const echo = (path: string, maxContentLength?: number) =>
    route(
      { method: "post", path, authorization: "public", body: { schema: Item, hint: "Send {text}." }, maxContentLength },
      ({ body, res }) => {
        res.json({ length: body.text.length });
      },
    );
  const routes = [
    route(
      {
        method: "get",
        path: "/items/:n",
        authorization: "public",
        params: { schema: z.object({ n: z.coerce.number().int() }), hint: "n is a number." },
        query: { schema: z.strictObject({ half: z.literal("yes").optional() }), hint: "half=yes", report: "names" },
      },
      ({ params, query, res }) => {
        res.json({ n: query.half ? params.n / 2 : params.n });
      },
    ),
    echo("/items/:n"),
    echo("/large", 4_096),
    route(
      {
        method: "get",
        path: "/guarded",
        authorization: {
          guard: (req) => {
            if (req.get("authorization") !== "Bearer letmein") throw new AppError("unauthenticated", "No token");
          },
        },
      },
      ({ res }) => {
        res.json({ ok: true });
      },
    ),
    route({ method: "get", path: "/api/v1/mine", authorization: "account" }, ({ caller, res }) => {
      res.json({ user: caller.userId });
    }),
    route({ method: "get", path: "/answers/data", authorization: "public" }, () => ({ word: "hello" })),
    route({ method: "post", path: "/answers/created", authorization: "public" }, () =>
      reply({ id: 7 }, { status: 201, headers: { Location: "/answers/7" }, meta: { version: "2" } }),
    ),
    route({ method: "get", path: "/answers/page", authorization: "public" }, () =>
      pageOf(["a", "b"], { page: 1, limit: 2, total: 3, hasMore: true }),
    ),
    route({ method: "get", path: "/answers/tagged", authorization: "public" }, () =>
      reply({ word: "same" }, { revalidatable: true }),
    ),
    route({ method: "get", path: "/answers/nothing", authorization: "public" }, () => undefined),
  ];
  let app: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    app = await serve(routes);
  });
  afterAll(async () => {
    await app.close();
  });

  it("hands the handler parsed inputs, and refuses bad ones with 400 and the hint", async () => {
    expect(await (await fetch(`${app.base}/items/8?half=yes`)).json()).toEqual({ n: 4 });
    const bad = await fetch(`${app.base}/items/eight`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { hint: string } }).error.hint).toBe("n is a number.");
    const unknown = await fetch(`${app.base}/items/8?sort=1`);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      'unknown query parameter "sort"',
    );
  });

  it("answers 405 with the declared methods on a path", async () => {
    const response = await fetch(`${app.base}/items/8`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, HEAD");
  });

  it("reads bodies up to the server's limit, or a route's own", async () => {
    const text = "a".repeat(200);
    const refused = await post(`${app.base}/items/1`, { text });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "The request body is larger than 64 bytes",
    );
    expect(await (await post(`${app.base}/large`, { text })).json()).toEqual({ length: 200 });
    expect((await post(`${app.base}/large`, { text: "a".repeat(5_000) })).status).toBe(413);
  });

  it("runs a guard before the handler", async () => {
    expect((await fetch(`${app.base}/guarded`)).status).toBe(401);
    const allowed = await fetch(`${app.base}/guarded`, { headers: { authorization: "Bearer letmein" } });
    expect(await allowed.json()).toEqual({ ok: true });
  });

  it("refuses a caller route that no access middleware admitted anyone to", async () => {
    expect((await fetch(`${app.base}/api/v1/mine`)).status).toBe(401);
  });

  it("answers what a handler returns in the request's envelope", async () => {
    const data = await fetch(`${app.base}/answers/data`, { headers: { "x-request-id": "r-1" } });
    expect(data.status).toBe(200);
    expect(await data.json()).toEqual({ ok: true, data: { word: "hello" }, meta: { requestId: "r-1" } });
    const formB = await fetch(`${app.base}/answers/data`, { headers: { "x-response-form": "B" } });
    expect(await formB.json()).toEqual({ success: true, data: { word: "hello" } });
  });

  it("answers a reply with its status, headers and meta, and a page with its links", async () => {
    const created = await fetch(`${app.base}/answers/created`, { method: "POST", headers: { "x-request-id": "r-2" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe("/answers/7");
    expect(await created.json()).toEqual({ ok: true, data: { id: 7 }, meta: { version: "2", requestId: "r-2" } });
    const createdB = await fetch(`${app.base}/answers/created`, {
      method: "POST",
      headers: { "x-response-form": "B" },
    });
    expect(await createdB.json()).toEqual({ success: true, data: { id: 7 }, meta: { version: "2" } });
    const page = await fetch(`${app.base}/answers/page`, { headers: { "x-response-form": "B" } });
    expect(page.headers.get("link")).toContain('rel="next"');
    expect(await page.json()).toEqual({
      success: true,
      data: ["a", "b"],
      meta: { page: 1, limit: 2, total: 3, hasMore: true },
    });
  });

  it("tags a revalidatable reply and answers 304 to its tag", async () => {
    const first = await fetch(`${app.base}/answers/tagged`);
    const tag = first.headers.get("etag") ?? "";
    expect(tag).toMatch(/^W\//);
    const again = await fetch(`${app.base}/answers/tagged`, { headers: { "if-none-match": tag } });
    expect(again.status).toBe(304);
  });

  it("answers 500 when a handler returns nothing and sent nothing", async () => {
    expect((await fetch(`${app.base}/answers/nothing`)).status).toBe(500);
  });

  it("lets only an API GET go uncounted for dashboard sessions", () => {
    const uncounted = (method: "get" | "post", authorization: "account" | "public", path = "/api/v1/mine") =>
      route({ method, path, authorization, uncountedForSessions: true }, () => undefined);
    expect(uncounted("get", "account").uncountedForSessions).toBe(true);
    expect(() => uncounted("post", "account")).toThrow("only a GET under /api/v1 goes uncounted for sessions");
    expect(() => uncounted("get", "public", "/mine")).toThrow("only a GET under /api/v1 goes uncounted for sessions");
    expect(route({ method: "get", path: "/api/v1/mine", authorization: "account" }, () => undefined)).toMatchObject({
      uncountedForSessions: false,
    });
  });

  it("refuses every write of a workspace's viewer with 403 forbidden naming the role, and lets them read", async () => {
    const viewer = {
      kind: "user" as const,
      userId: "00000000-0000-4000-8000-000000000001",
      workspaceId: "00000000-0000-4000-8000-000000000002",
      workspaceRole: "viewer" as const,
      plan: "pro" as const,
      role: "member" as const,
      claims: { sub: "00000000-0000-4000-8000-000000000001", exp: 0 },
      sessionId: "00000000-0000-4000-8000-000000000003",
    };
    const done = () => ({ done: true });
    const routes = [
      route({ method: "get", path: "/api/v1/things", authorization: "account" }, done),
      route({ method: "post", path: "/api/v1/things", authorization: "account" }, done),
      route({ method: "delete", path: "/api/v1/things", authorization: "account" }, done),
      route({ method: "post", path: "/api/v1/things/mine", authorization: "account", viewerMayWrite: true }, done),
    ];
    const app = express();
    app.use(requestContext("A"));
    app.use((_req, res, next) => {
      res.locals.caller = viewer;
      next();
    });
    app.use(jsonBodies({ routes, limitBytes: 64 }));
    app.use(routerOf(routes));
    app.use(errorHandler(pino({ level: "silent" })));
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/things`;
    try {
      expect((await fetch(base)).status).toBe(200);
      for (const method of ["POST", "DELETE"]) {
        const refused = await fetch(base, { method });
        expect(refused.status).toBe(403);
        const body = (await refused.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("forbidden");
        expect(body.error.message).toMatch(/viewer/);
      }
      // a write of the viewer's own standing goes through
      expect((await fetch(`${base}/mine`, { method: "POST" })).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("takes a caller only under /api/v1", () => {
    expect(() => route({ method: "get", path: "/mine", authorization: "account" }, () => undefined)).toThrow(
      "only routes under /api/v1 take a caller",
    );
    expect(() => route({ method: "get", path: "/api/v1/open", authorization: "public" }, () => undefined)).toThrow();
  });
});
