import { AccountView } from "@scan/contract";
import { KEY_REACH } from "../access/key-scope";
import type { RateLimiter } from "../access/rate-limiter";
import { apiErrors, commonHeaders, NoStore, record } from "../docs/common";
import { reply } from "../http/answer";
import { subjectOf } from "../http/api-access";
import { type Route, route } from "../http/route";
import type { Operations } from "../ops";

export type AccountRouteDeps = { operations: Operations; limiter: RateLimiter };

/**
 * GET /api/v1/account: the caller's plan, its rate-limit window and the user's monthly quota.
 * A key's window is the one this request was counted in. A dashboard session's read is counted
 * on the session's own budget, so its page shows the plan's window instead, read without
 * spending: the one its scans and other changes count against (and, while that is used up,
 * this page still answers and says until when). Its reads are uncounted for a session, so it
 * answers, and shows the session's read budget, also once that budget is spent.
 */
export const accountRoutes = ({ operations, limiter }: AccountRouteDeps): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/account",
      reach: KEY_REACH.open,
      authorization: "account",
      uncountedForSessions: true,
      docs: {
        operationId: "getAccount",
        tags: ["Account"],
        summary: "The caller's plan and limits",
        description:
          "The plan, the rate-limit window this request was counted in (the API key's counter, or the signed-in user's; the same numbers as the X-RateLimit-* headers) and the user's monthly scan quota: `used` counts every scan stored this calendar month (UTC) from any of the user's keys or sessions, `limit` null is unlimited, `resetsAt` is the start of next month. A dashboard session's read of this view is not counted: `sessionReads` (null for an API key) and the X-RateLimit-* headers show the session's budget of reads as it stands, so the page answers, and explains that budget, also once it is spent.",
        headers: commonHeaders,
        responses: {
          "200": record("The caller's account.", AccountView, { headers: { "Cache-Control": NoStore } }),
          ...apiErrors(401, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, req, res }) => {
      const bySession = subjectOf(caller, req).kind === "session-read";
      // the access middleware peeked the session's budget rather than spending it
      const window = bySession
        ? await limiter.peek({ kind: "user", userId: caller.userId, plan: caller.plan })
        : res.locals.rateLimit;
      const reads = res.locals.rateLimit;
      const data: AccountView = {
        plan: caller.plan,
        rateLimit: { limit: window.limit, remaining: window.remaining, reset: window.resetAt },
        sessionReads: bySession ? { limit: reads.limit, remaining: reads.remaining, reset: reads.resetAt } : null,
        quota: await operations.quota(caller.workspaceId, caller.plan),
      };
      return reply(data, { headers: { "Cache-Control": "no-store" } });
    },
  ),
];
