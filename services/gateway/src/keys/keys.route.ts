import { ApiKeyView, CreatedApiKey, CreateKeyRequest, KeyIdParam, PageQuery } from "@scan/contract";
import { z } from "zod";
import { actorOf } from "../access/actor";
import {
  apiErrors,
  commonHeaders,
  conditionalHeaders,
  created,
  creatingHeaders,
  page,
  pageNotModified,
  record,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { KeyService } from "./key-service";

const BODY_HINT =
  'Send {"name": "ci", "default_form": "A" | "B" | null, "client_id": "<client id>" | null, "read_only": true | false} as JSON; every field is optional.';

const CacheControl = z.literal("no-store").meta({
  description: "The full key is in this response only (and its replay to a retry with the same `Idempotency-Key`).",
});

/** GET/POST /api/v1/keys and DELETE /api/v1/keys/:id (docs/spec/public-scanning-api.md §4.7), for the user a JWT names. */
export const keyRoutes = (keys: KeyService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/keys",
      authorization: "user-jwt",
      query: { schema: PageQuery, hint: "page ≥ 1; limit from 1 to 100." },
      docs: {
        operationId: "listKeys",
        tags: ["API keys"],
        summary: "The user's active API keys",
        description: "Newest first. Never the keys themselves: their `prefix` tells them apart.",
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of keys.", ApiKeyView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller: user, query }) => {
      const { keys: items, meta } = await keys.list(user, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/keys",
      authorization: "user-jwt",
      body: { schema: CreateKeyRequest, hint: BODY_HINT, optional: true },
      idempotent: true,
      docs: {
        operationId: "createKey",
        tags: ["API keys"],
        summary: "Create an API key",
        description:
          "No body is fine. `default_form` is the envelope for requests made with the key that send no `X-Response-Form`. `client_id` limits the key to one client of the workspace: it sees and acts on that client's sites and their records alone, anything else being 404 (an unknown or another workspace's client is 404 here). `read_only: true` makes every write with the key 403 `READ_ONLY_KEY` (docs/workspaces.md, Scoped API keys). A user holds at most `MAX_KEYS_PER_USER` active keys (403 beyond). Without a JWT key configured the key endpoints answer 503.",
        headers: creatingHeaders,
        responses: {
          "201": created(
            "The key record and, this once, the key itself (again to a retry with its `Idempotency-Key`).",
            CreatedApiKey,
            {
              headers: { "Cache-Control": CacheControl },
            },
          ),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller: user, body: input, req, res }) => {
      const created = await keys.create(user, input, actorOf(user, req, res));
      // the only response that ever holds the key: no cache may keep it
      return reply(created, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  ),

  route(
    {
      method: "delete",
      path: "/api/v1/keys/:id",
      authorization: "user-jwt",
      params: { schema: KeyIdParam, hint: "Use a key id from GET /api/v1/keys." },
      docs: {
        operationId: "revokeKey",
        tags: ["API keys"],
        summary: "Revoke an API key",
        description:
          "The key authenticates nothing more and is no longer listed; the scans made with it stay the workspace's. Another workspace's, an unknown or an already revoked key is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("The revoked key (`revoked_at` set).", ApiKeyView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller: user, params, req, res }) => keys.revoke(user, params.id, actorOf(user, req, res)),
  ),
];
