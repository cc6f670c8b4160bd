import { type AccountView, successBody } from "@scan/contract";
import type { Operations } from "../domain/operations";
import { type Route, route } from "../http/route";

/** GET /api/v1/account: the caller's plan, its rate-limit window (this request counted) and the user's monthly quota. */
export const accountRoutes = (operations: Operations): Route[] => [
  route({ method: "get", path: "/api/v1/account", authorization: "account" }, async ({ caller, res }) => {
    const window = res.locals.rateLimit;
    const data: AccountView = {
      plan: caller.plan,
      rateLimit: { limit: window.limit, remaining: window.remaining, reset: window.resetAt },
      quota: await operations.quota(caller.userId, caller.plan),
    };
    res.setHeader("Cache-Control", "no-store");
    res.json(successBody(res.locals.form, data, { requestId: res.locals.requestId }));
  }),
];
