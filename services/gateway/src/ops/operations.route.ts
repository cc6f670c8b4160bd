import { successBody } from "@scan/contract";
import { type Route, route } from "../http/route";
import type { Operations } from "./operations";

/** GET /api/v1/operations: the queue, its workers, the last hour and the latest failures, for operators (members: 403). */
export const operationsRoutes = (operations: Operations): Route[] => [
  route({ method: "get", path: "/api/v1/operations", authorization: "operator" }, async ({ res }) => {
    res.setHeader("Cache-Control", "no-store");
    res.json(successBody(res.locals.form, await operations.overview(), { requestId: res.locals.requestId }));
  }),
];
