import { CreateKeyRequest, KeyIdParam, PageQuery } from "@scan/contract";
import type { KeyService } from "../domain/key-service";
import { page, reply } from "../http/answer";
import { type Route, route } from "../http/route";

const BODY_HINT = 'Send {"name": "ci", "default_form": "A" | "B" | null} as JSON; both fields are optional.';

/** GET/POST /api/v1/keys and DELETE /api/v1/keys/:id (docs/spec/public-scanning-api.md §4.7), for the user a JWT names. */
export const keyRoutes = (keys: KeyService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/keys",
      authorization: "user-jwt",
      query: { schema: PageQuery, hint: "page ≥ 1; limit from 1 to 100." },
    },
    async ({ caller: user, query }) => {
      const { keys: items, meta } = await keys.list({ id: user.userId, plan: user.plan }, query);
      return page(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/keys",
      authorization: "user-jwt",
      body: { schema: CreateKeyRequest, hint: BODY_HINT, optional: true },
      idempotent: true,
    },
    async ({ caller: user, body: input }) => {
      const created = await keys.create({ id: user.userId, plan: user.plan }, input);
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
    },
    async ({ caller: user, params }) => keys.revoke({ id: user.userId, plan: user.plan }, params.id),
  ),
];
