import {
  AppError,
  normaliseScanUrl,
  type ScanAccepted,
  ScanIdParam,
  ScanReadQuery,
  ScanRequest,
  toCallbackDelivery,
  toScanResult,
  toStoredScan,
} from "@scan/contract";
import { scanLink } from "../domain/scan-access";
import type { ScanService } from "../domain/scan-service";
import { reply } from "../http/answer";
import { parsePrefer } from "../http/prefer";
import { type Route, route } from "../http/route";
import { exportFormatFor, sendExport } from "../http/scan-representation";

const BODY_HINT =
  'Send {"url": "https://example.com", "mode": "quick" | "full", "callback_url": "https://..." (optional)} as JSON.';

const ACCESS_HINT =
  "The parameters are format=json|csv|sarif|junit and, for an anonymous scan, access=<token> from the Location header of POST /api/v1/scan.";

/**
 * POST /api/v1/scan (docs/spec/public-scanning-api.md §4.1) and GET /api/v1/scan/:id (§4.3),
 * which also exports a finished scan as CSV, SARIF or JUnit XML (docs/api.md, Exports).
 */
export const scanRoutes = (scans: ScanService): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/scan",
      authorization: "anyone",
      body: { schema: ScanRequest, hint: BODY_HINT },
      idempotent: true,
    },
    async ({ caller, body: input, req, res }) => {
      const form = res.locals.form;
      const url = normaliseScanUrl(input.url, form);
      if (!url.ok) throw new AppError("invalid_request", `url: ${url.reason}`, BODY_HINT);

      // Prefer: respond-async (RFC 7240) answers 202 as soon as the scan is queued
      const prefer = parsePrefer(req.headers.prefer);
      const respondAsync = prefer.has("respond-async");
      // Prefer: wait=<seconds> (RFC 7240) shortens the wait below SCAN_WAIT_MS
      const wait = /^\d{1,6}$/.test(prefer.get("wait") ?? "") ? Number(prefer.get("wait")) * 1000 : undefined;
      // a client that goes away stops the wait, not the scan
      const gone = new AbortController();
      res.on("close", () => gone.abort());
      // a retry whose key's first request stored the scan answers that scan, and stores nothing
      const bound = res.locals.idempotency?.resource;
      const request = { url: url.url, mode: input.mode, respondAsync, budgetMs: wait };
      const submitted = bound
        ? await scans.resume(request, bound, gone.signal)
        : await scans.submit(
            {
              ...request,
              requestId: res.locals.requestId,
              callbackUrl: input.callback_url,
              bind: res.locals.idempotency?.bind,
            },
            caller.kind === "anonymous" ? null : caller,
            gone.signal,
          );
      // a client that went away is answered all the same: the answer is what its retry (with an Idempotency-Key) receives
      // where the scan is read: an anonymous maker's link carries the token only it is given
      const link = scanLink(submitted.scan.id, submitted.accessToken);
      if (respondAsync || !submitted.finished) {
        const { id, url: scanned, mode, status } = submitted.scan;
        if (respondAsync) res.setHeader("Preference-Applied", "respond-async");
        res.location(link);
        return reply({ id, url: scanned, mode, status } satisfies ScanAccepted, { status: 202, scanEndpoint: true });
      }
      const { scan } = submitted;
      if (scan.status === "failed") {
        throw new AppError(
          "upstream_failure",
          `The scan of ${scan.url} failed: ${scan.errorMessage ?? "unknown reason"}`,
          `Check that the site answers; the failed scan is stored as ${scan.id}.`,
        );
      }
      return reply(toScanResult(scan), { headers: { "Content-Location": link }, scanEndpoint: true });
    },
  ),

  route(
    {
      method: "get",
      path: "/api/v1/scan/:id",
      authorization: "account-or-link",
      params: { schema: ScanIdParam, hint: "Use the id returned by POST /api/v1/scan." },
      query: { schema: ScanReadQuery, hint: ACCESS_HINT, report: "names" },
    },
    async ({ caller, params, query, req, res }) => {
      // one URL, several representations: a cache keys them on Accept
      res.vary("Accept");
      const viewer = caller.kind === "anonymous" ? null : caller.userId;
      const scan = await scans.get(params.id, viewer, query.access);
      const format = exportFormatFor(query.format, req.get("accept"));
      if (format !== "json") return sendExport(res, format, toStoredScan(scan));
      // a callback URL may carry the receiver's own token: only the scan's owner is shown it
      // (an anonymous scan has none, so its readers never see the callback)
      const ownCallback = scan.callbackUrl && viewer !== null && scan.userId === viewer;
      const callback = ownCallback ? toCallbackDelivery(scan, await scans.deliveries(scan.id)) : undefined;
      // the tag follows the scan's state (and its callback's): a poll of a running scan is a 304 until it moves
      return reply({ ...toStoredScan(scan), callback }, { revalidatable: true });
    },
  ),
];
