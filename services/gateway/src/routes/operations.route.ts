import type { Operations } from "../domain/operations";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";

/** GET /api/v1/operations: the queue, its workers, the last hour and the latest failures, for operators (members: 403). */
export const operationsRoutes = (operations: Operations): Route[] => [
  route({ method: "get", path: "/api/v1/operations", authorization: "operator" }, async () =>
    reply(await operations.overview(), { headers: { "Cache-Control": "no-store" } }),
  ),
];
