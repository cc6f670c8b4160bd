import { pageParams, SiteIdParam } from "@scan/contract";
import { z } from "zod";
import type { AlertService } from "../domain/alert-service";
import { page } from "../http/answer";
import { type Route, route } from "../http/route";

export const AlertListQuery = z.strictObject(pageParams);

/** A site's regression alerts (docs/audits.md, Regression alerts): read-only, newest first, paged. */
export const alertRoutes = ({ alerts }: { alerts: AlertService }): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/alerts",
      authorization: "account",
      params: { schema: SiteIdParam, hint: "Use a UUID from the API." },
      query: { schema: AlertListQuery, hint: "page ≥ 1; limit from 1 to 100.", report: "names" },
    },
    async ({ caller, params, query }) => {
      const { alerts: items, meta } = await alerts.listForSite(caller.userId, params.id, query);
      return page(items, meta);
    },
  ),
];
