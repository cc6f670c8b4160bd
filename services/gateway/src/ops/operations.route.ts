import { OperationsView } from "@scan/contract";
import { apiErrors, commonHeaders, NoStore, record } from "../docs/common";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { Operations } from "./operations";

/** GET /api/v1/operations: the queue, its workers, the last hour and the latest failures, for operators (members: 403). */
export const operationsRoutes = (operations: Operations): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/operations",
      authorization: "operator",
      docs: {
        operationId: "getOperations",
        tags: ["Account"],
        summary: "The service's queue, workers and last hour (operators)",
        description:
          "For a signed-in user with the operator role (a member is 403 `forbidden`; an API key is 401): the queue's jobs by state (BullMQ), the workers connected to it and when Redis last heard from each, the scans finished in each of the last 60 minutes with the median and 95th percentile scan time (queued to finished) of the completed ones, the 10 latest failed scans with their reasons, and the queue dashboard's path when the deployment has one.",
        headers: commonHeaders,
        responses: {
          "200": record("The service's state now.", OperationsView, { headers: { "Cache-Control": NoStore } }),
          ...apiErrors(401, 403, 405, 429, 500, 503),
        },
      },
    },
    async () => reply(await operations.overview(), { headers: { "Cache-Control": "no-store" } }),
  ),
];
