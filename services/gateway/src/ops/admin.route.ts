import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { Queue } from "bullmq";
import { Router } from "express";
import { dashboardOperator } from "../http/operator-access";
import { guarded } from "../http/route";

export const DASHBOARD_PATH = "/admin/queues";

/**
 * bull-board over the given queues at /admin/queues, only when an admin token is configured:
 * without one nothing is mounted and the path is an ordinary 404. Only the dashboard's
 * operator may use it (see dashboardOperator).
 */
export const adminRoutes = ({ token, queues }: { token: string | undefined; queues: readonly Queue[] }): Router => {
  const router = Router();
  if (!token) return router;
  const board = new ExpressAdapter();
  board.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter: board });
  router.use(
    DASHBOARD_PATH,
    (_req, res, next) => {
      // one label for the dashboard's pages and calls, which are no routes of ours
      res.locals.route = DASHBOARD_PATH;
      next();
    },
    guarded(dashboardOperator(token)),
    board.getRouter(),
  );
  return router;
};
