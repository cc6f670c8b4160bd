import {
  AppError,
  normaliseScanUrl,
  type ScanAccepted,
  ScanIdParam,
  ScanRequest,
  successBody,
  toCallbackDelivery,
  toScanResult,
  toStoredScan,
} from "@scan/contract";
import type { ScanService } from "../domain/scan-service";
import { sendRevalidatable } from "../http/conditional";
import { parsePrefer } from "../http/prefer";
import { type Route, route } from "../http/route";

const BODY_HINT =
  'Send {"url": "https://example.com", "mode": "quick" | "full", "callback_url": "https://..." (optional)} as JSON.';

/** POST /api/v1/scan (docs/spec/public-scanning-api.md §4.1) and GET /api/v1/scan/:id (§4.3). */
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
      const { scan, finished } = await scans.submit(
        {
          url: url.url,
          mode: input.mode,
          requestId: res.locals.requestId,
          callbackUrl: input.callback_url,
          respondAsync,
          budgetMs: wait,
        },
        caller.kind === "key" ? caller : null,
        gone.signal,
      );
      // a client that went away is answered all the same: the answer is what its retry (with an Idempotency-Key) receives
      const meta = { requestId: res.locals.requestId };
      if (respondAsync || !finished) {
        if (respondAsync) res.setHeader("Preference-Applied", "respond-async");
        res.status(202).location(`/api/v1/scan/${scan.id}`);
        res.json(
          successBody(
            form,
            { id: scan.id, url: scan.url, mode: scan.mode, status: scan.status } satisfies ScanAccepted,
            meta,
            { scanEndpoint: true },
          ),
        );
        return;
      }
      if (scan.status === "failed") {
        throw new AppError(
          "upstream_failure",
          `The scan of ${scan.url} failed: ${scan.errorMessage ?? "unknown reason"}`,
          `Check that the site answers; the failed scan is stored as ${scan.id}.`,
        );
      }
      res.status(200).json(successBody(form, toScanResult(scan), meta, { scanEndpoint: true }));
    },
  ),

  route(
    {
      method: "get",
      path: "/api/v1/scan/:id",
      authorization: "api-key",
      params: { schema: ScanIdParam, hint: "Use the id returned by POST /api/v1/scan." },
    },
    async ({ caller, params, req, res }) => {
      const scan = await scans.get(params.id, caller.userId);
      // a callback URL may carry the receiver's own token: only the scan's owner is shown it
      // (an anonymous scan has none, so its readers never see the callback)
      const ownCallback = scan.callbackUrl && scan.userId === caller.userId;
      const callback = ownCallback ? toCallbackDelivery(scan, await scans.deliveries(scan.id)) : undefined;
      // the tag follows the scan's state (and its callback's): a poll of a running scan is a 304 until it moves
      await sendRevalidatable(
        req,
        res,
        successBody(res.locals.form, { ...toStoredScan(scan), callback }, { requestId: res.locals.requestId }),
      );
    },
  ),
];
