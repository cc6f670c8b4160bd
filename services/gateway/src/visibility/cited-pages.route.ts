import { CitedPagesView, RunIdParam, StartRunRequest } from "@scan/contract";
import { apiErrors, commonHeaders, record } from "../docs/common";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { CitedPagesService } from "./cited-pages-service";

const TAGS: ["Visibility"] = ["Visibility"];
const RUN_HINT = "Use a run id from GET /api/v1/sites/{id}/visibility/runs.";

const WHAT = [
  "A completed run's **cited pages**: the brand's pages its answers cited (on the profile's `brand_domains`), and the pages cited in answers that cited none of the brand's (a tracked competitor's, named in `competitor`, or anyone else's), each joined to the scan that judged it with the service's own checks.",
  "",
  "Bounds (`bounds`): the `brand_pages` most cited pages of the brand and the `competitor_pages` most cited others (ties by URL), one per normalised URL; a URL on no fetchable page of its site (Gemini's redirect links) is left out. A completed scan of the same address by the workspace within `reuse_within_hours` is taken (`scan.reused`) instead of a new one.",
  "",
  "Each page has a `state`: `not_started` (not yet sent), `refused` (the address policy refused it; `refused` says why, and it was not scanned), or its scan's `queued`, `running`, `completed`, `failed` (`missing`: its scan was deleted).",
  "",
  "`prompts` sets them side by side: per prompt, the brand's cited pages and the competitor pages cited where the brand's were not, each competitor page `compared_with` the prompt's most cited brand page (else the run's), and `lacks`: each check the competitor page passes that the brand's page fails or warns on (null until both scans completed).",
].join("\n");

/** /api/v1/visibility/runs/:id/cited-pages: a run's cited pages scanned, and read side by side. */
export const citedPageRoutes = (citedPages: CitedPagesService): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/visibility/runs/:id/cited-pages",
      authorization: "account",
      params: { schema: RunIdParam, hint: RUN_HINT },
      body: { schema: StartRunRequest, hint: "Send no body, or {}.", report: "names", optional: true },
      docs: {
        operationId: "scanVisibilityCitedPages",
        tags: TAGS,
        summary: "Scan the pages a visibility run's answers cited",
        description: [
          "Sends a completed run's cited pages to be scanned (quick scans, through the same intake as `POST /api/v1/scan`: the address policy first, then the workspace's monthly scan quota, all pages or none): 202 with the pages as they now stand. Sent once per run: asking again answers 200 with the pages as they are.",
          "",
          WHAT,
          "",
          "409 with `Retry-After` while the run is `queued` or `running`; 409 for a failed or cancelled run; 403 `PLAN_LIMIT` when the month's scans left are fewer than the pages to scan. Another workspace's run, or one outside a client-scoped key's client, is 404.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "202": record("The cited pages, sent to be scanned.", CitedPagesView),
          "200": record("The cited pages, sent earlier.", CitedPagesView),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, res }) => {
      const { started, view } = await citedPages.start(caller, params.id, res.locals.requestId);
      return reply(view, { status: started ? 202 : 200 });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/visibility/runs/:id/cited-pages",
      authorization: "account",
      params: { schema: RunIdParam, hint: RUN_HINT },
      docs: {
        operationId: "getVisibilityCitedPages",
        tags: TAGS,
        summary: "A visibility run's cited pages side by side: what a cited page has that yours lacks",
        description: `${WHAT}\n\nBefore the pages are sent (\`started: false\`) the list is what would be sent now. Another workspace's run, or one outside a client-scoped key's client, is 404.`,
        headers: commonHeaders,
        responses: {
          "200": record("The cited pages.", CitedPagesView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    ({ caller, params }) => citedPages.read(caller.workspaceId, params.id),
  ),
];
