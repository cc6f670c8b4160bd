import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import { AppError } from "@scan/contract";
import { basicPassword, bearerToken, tokenMatches } from "@scan/platform";
import type { Queue } from "bullmq";
import { type RequestHandler, Router } from "express";

export const DASHBOARD_PATH = "/admin/queues";

/**
 * The admin token, as `Authorization: Bearer <ADMIN_TOKEN>` (scripts, a proxy that injects
 * it) or as the password of HTTP Basic with any user name (a browser asks for it, and then
 * sends it with the dashboard's own API calls). A browser sends Basic credentials by itself,
 * so a state-changing request from another origin is refused: no other site can make an
 * operator's browser retry or clean jobs.
 */
export const requireAdmin =
  (token: string): RequestHandler =>
  (req, res, next) => {
    res.locals.route = DASHBOARD_PATH;
    const authorization = req.get("authorization");
    const presented = bearerToken(authorization) ?? basicPassword(authorization);
    if (!tokenMatches(presented, token)) {
      res.append("WWW-Authenticate", 'Basic realm="queues", charset="UTF-8"');
      res.append("WWW-Authenticate", 'Bearer realm="queues"');
      throw new AppError(
        "unauthenticated",
        "The queue dashboard needs the admin token",
        "Send Authorization: Bearer <ADMIN_TOKEN>, or sign in with the token as the password.",
      );
    }
    const origin = req.get("origin");
    if (!["GET", "HEAD", "OPTIONS"].includes(req.method) && origin && new URL(origin).host !== req.get("host")) {
      throw new AppError("forbidden", "Cross-origin changes to the queues are refused", "Use the dashboard itself.");
    }
    next();
  };

/**
 * bull-board over the given queues at /admin/queues, only when an admin token is configured:
 * without one nothing is mounted and the path is an ordinary 404.
 */
export const adminRoutes = ({ token, queues }: { token: string | undefined; queues: readonly Queue[] }): Router => {
  const router = Router();
  if (!token) return router;
  const board = new ExpressAdapter();
  board.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter: board });
  router.use(DASHBOARD_PATH, requireAdmin(token), board.getRouter());
  return router;
};
