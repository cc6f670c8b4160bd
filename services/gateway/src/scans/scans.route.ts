import {
  AppError,
  BatchScanAccepted,
  BatchScanRequest,
  normaliseScanUrl,
  ScanListQuery,
  ScanSummary,
  waitInWords,
} from "@scan/contract";
import { toStoredScan } from "@scan/reports";
import { z } from "zod";
import { KEY_REACH } from "../access/key-scope";
import { type RateLimiter, rateLimitHeaders } from "../access/rate-limiter";
import {
  apiErrors,
  conditionalHeaderParams,
  created,
  creatingHeaderParams,
  page,
  pageNotModified,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { subjectOf } from "../http/api-access";
import { type Route, route } from "../http/route";
import type { SiteService } from "../sites";
import { resumeBatch } from "./scan-batches";
import type { ScanService } from "./scan-service";

const BATCH_HINT =
  'Send {"urls": ["https://example.com/", ...], "mode": "quick" | "full", "callback_url": "https://..."} with 1 to 100 URLs; mode and callback_url are optional.';
const LIST_HINT =
  "page ≥ 1; limit from 1 to 100; status (optional): queued, running, completed or failed; site_id (optional): one of your sites' ids.";

export type ScanListDeps = {
  scans: ScanService;
  sites: SiteService;
  limiter: RateLimiter;
  onRejected?: (plan: string) => void;
};

/**
 * POST /api/v1/scans/batch (many scans, answered at once) and GET /api/v1/scans (the key
 * holder's scans). Beyond docs/spec/public-scanning-api.md, for agencies that send scans in bulk (docs/api.md, Bulk scans).
 */
export const scanListRoutes = ({ scans, sites, limiter, onRejected }: ScanListDeps): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/scans/batch",
      reach: KEY_REACH.manyUrls,
      authorization: "account",
      body: { schema: BatchScanRequest, hint: BATCH_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "createScanBatch",
        tags: ["Scans"],
        summary: "Scan up to 100 URLs",
        description:
          "Queues one scan per URL and answers at once. Each URL follows `POST /api/v1/scan`'s rules and counts against the rate limit; `mode` and `callback_url` apply to every scan. Poll each scan at `/api/v1/scan/{id}`, or list them with `GET /api/v1/scans`.",
        headers: z.object(creatingHeaderParams),
        responses: {
          "202": created("The queued scans, in the order of `urls`.", BatchScanAccepted),
          ...apiErrors(400, 401, 403, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller: owner, body: input, req, res }) => {
      const form = res.locals.form;
      const urls = input.urls.map((raw, i) => {
        const url = normaliseScanUrl(raw, form);
        if (!url.ok) throw new AppError("invalid_request", `urls[${i}]: ${url.reason}`, BATCH_HINT);
        return url.url;
      });
      // a retry whose key's first request stored the batch answers those scans, and stores nothing
      const bound = res.locals.idempotency?.resource;
      // every URL is a request against the rate limit: the access check counted one, the rest
      // are counted here, all or none (once: not again for the retry that answers a stored batch)
      if (urls.length > 1 && !bound) {
        const state = await limiter.consume(subjectOf(owner, req), urls.length - 1);
        for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
        if (!state.allowed) {
          onRejected?.(owner.plan);
          throw new AppError(
            "rate_limited",
            `A batch of ${urls.length} scans needs ${urls.length} requests of the rate limit; fewer are left in this window`,
            `Try again in ${waitInWords(state.retryAfterS ?? 1)}, or send a smaller batch.`,
            { "Retry-After": String(state.retryAfterS) },
          );
        }
      }
      const queued = bound
        ? resumeBatch({ urls, mode: input.mode }, bound)
        : await scans.submitBatch(
            {
              urls,
              mode: input.mode,
              requestId: res.locals.requestId,
              callbackUrl: input.callback_url,
              bind: res.locals.idempotency?.bind,
            },
            owner,
          );
      return reply(
        {
          scans: queued.map((scan) => ({
            id: scan.id,
            url: scan.url,
            mode: scan.mode,
            status: "queued" as const,
            location: `/api/v1/scan/${scan.id}`,
          })),
        } satisfies BatchScanAccepted,
        { status: 202 },
      );
    },
  ),

  route(
    {
      method: "get",
      path: "/api/v1/scans",
      reach: KEY_REACH.list,
      authorization: "account",
      query: { schema: ScanListQuery, hint: LIST_HINT, report: "names" },
      docs: {
        operationId: "listScans",
        tags: ["Scans"],
        summary: "The caller's scans",
        description:
          "The key holder's scans, newest first, optionally of one status and of one of their sites (`site_id`: the scans of URLs of the site's origin; another workspace's or an unknown site is 404), and of one client's sites (`client_id`: the scans of URLs of their origins; a key limited to a client lists those alone); each without its checks (read one scan for those).",
        headers: z.object(conditionalHeaderParams),
        responses: {
          "200": page("A page of scans.", ScanSummary),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query }) => {
      // another workspace's or an unknown site is 404, as on the other lists
      const site = query.site_id === undefined ? undefined : await sites.get(caller.workspaceId, query.site_id);
      const ofClient =
        query.client_id === undefined ? undefined : await sites.originsOf(caller.workspaceId, query.client_id);
      // both: the site's origin if it is the client's, else none
      const origins =
        site && ofClient
          ? ofClient.filter((origin) => origin === site.url)
          : (ofClient ?? (site ? [site.url] : undefined));
      const { scans: rows, meta } = await scans.list(caller.workspaceId, query, origins);
      // a summary per scan: the checks of a hundred scans are fetched one scan at a time
      const items = rows.map((scan): ScanSummary => {
        const { checks: _checks, ...summary } = toStoredScan({ ...scan, checks: null });
        return summary;
      });
      return pageOf(items, meta);
    },
  ),
];
