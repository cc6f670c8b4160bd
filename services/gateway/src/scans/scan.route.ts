import {
  AppError,
  normaliseScanUrl,
  ScanAccepted,
  ScanIdParam,
  ScanReadQuery,
  ScanRequest,
  ScanResult,
  ScanWebhook,
  StoredScan,
} from "@scan/contract";
import { toCallbackDelivery, toScanResult, toStoredScan } from "@scan/reports";
import { z } from "zod";
import { KEY_REACH } from "../access/key-scope";
import { scanLink } from "../access/scan-access";
import {
  apiErrors,
  apiHeaders,
  ContentLocationHeader,
  conditionalHeaderParams,
  created,
  creatingHeaderParams,
  jsonBody,
  LocationHeader,
  notModified,
  PreferenceApplied,
  record,
  revalidationHeaders,
  SarifLog,
} from "../docs/common";
import { reply } from "../http/answer";
import { parsePrefer } from "../http/prefer";
import { type Route, route } from "../http/route";
import { assertExportable, exportFormatFor, sendExport, sendPdf } from "./scan-representation";
import type { ScanService } from "./scan-service";

const BODY_HINT =
  'Send {"url": "https://example.com", "mode": "quick" | "full", "callback_url": "https://..." (optional)} as JSON.';

const ACCESS_HINT =
  "The parameters are format=json|csv|sarif|junit and, for an anonymous scan, access=<token> from the Location header of POST /api/v1/scan.";

// no example: the interactive reference fills parameters from examples, and a first try should wait for the score
const Prefer = z.string().optional().meta({
  description:
    "`respond-async` (RFC 7240; any case, among other preferences) answers 202 as soon as the scan is stored and queued; `wait=<seconds>` waits less than `SCAN_WAIT_MS`. Without it the request waits for the result.",
});

/** The columns of a scan's CSV export, as its header row names them. */
const CSV_HEADER =
  "url,final_url,scan_id,mode,scanned_at,area,check_id,title,status,severity,score,max_score,finding,fix";

const ContentDisposition = z
  .string()
  .optional()
  .meta({
    description: 'On an export: `attachment; filename="scan-<id>.csv"` (`.sarif`, `.xml`).',
    header: { id: "Content-Disposition" },
  });

/** The signed POST a scan's callback_url receives when the scan has completed or failed. */
const scanCallback = {
  "{$request.body#/callback_url}": {
    post: {
      summary: "The finished scan, POSTed to callback_url",
      description: [
        "Sent once the scan has completed (`scan.completed`) or failed (`scan.failed`); `data` is what `GET /api/v1/scan/{id}` answers, byte for byte the same on every attempt.",
        "",
        "Verify `X-Signature: t=<unix seconds>,v1=<hex>`: the lowercase hex HMAC-SHA256, keyed with the deployment's `WEBHOOK_SECRET`, of `<t>.<raw body>`; compare in constant time and refuse a `t` more than 5 minutes from your clock.",
        "",
        "A 2xx answer is a delivery; anything else (redirects included, which are not followed), or no answer within `WEBHOOK_TIMEOUT_MS`, is retried with backoff up to `WEBHOOK_ATTEMPTS` in all. The attempts show on the scan as `callback`.",
      ].join("\n"),
      requestParams: {
        header: z.object({
          "X-Signature": z.string().meta({ description: "`t=<unix seconds>,v1=<hex HMAC-SHA256>`" }),
          "X-Webhook-Id": z.uuid().meta({ description: "The scan id, the same on every attempt: deduplicate on it." }),
          "X-Webhook-Attempt": z.int().positive().meta({ description: "1 for the first attempt." }),
          "X-Request-Id": z.string().optional().meta({ description: "The request id of the scan's request." }),
          "User-Agent": z.literal("AEOScan-Webhook/0.1"),
        }),
      },
      requestBody: jsonBody(ScanWebhook),
      responses: {
        "2XX": { description: "Delivered." },
        default: { description: "Not delivered: retried with backoff." },
      },
    },
  },
};

/**
 * POST /api/v1/scan (docs/spec/public-scanning-api.md §4.1) and GET /api/v1/scan/:id (§4.3),
 * which also exports a finished scan as CSV, SARIF or JUnit XML (docs/api.md, Exports).
 */
export const scanRoutes = (
  scans: ScanService,
  /** a finished scan's client report: the PDF of its print view, branded as the viewer's workspace */
  scanPdf: (scan: StoredScan, viewerWorkspaceId: string | null) => Promise<Buffer>,
): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/scan",
      reach: KEY_REACH.oneUrl,
      authorization: "anyone",
      body: { schema: ScanRequest, hint: BODY_HINT },
      idempotent: true,
      docs: {
        operationId: "createScan",
        tags: ["Scans"],
        summary: "Scan a URL",
        description: [
          "Stores the scan (`queued`), queues it and waits up to `SCAN_WAIT_MS` (30 s by default) for the result.",
          "",
          "- `url`: Form A wants an absolute `http(s)://` URL; in Form B a URL without a scheme means `https://`. Fragments are dropped, hosts lower-cased and IDNA-encoded, default ports removed; credentials, other schemes, more than 2,048 characters, and targets that are or resolve to loopback, private, link-local or reserved addresses are refused (400).",
          "- `mode`: `quick` runs the 20 core checks (about 10 s; `partial: true`), `full` all 57 (about 25 s).",
          "- `callback_url`: receives the finished scan by a signed POST (see the callback); it follows a target's address rules, and is refused when the deployment has no `WEBHOOK_SECRET`.",
          "",
          "Anonymous callers may scan too (10 an hour per address). Scans made with a key belong to the key's workspace and count against its plan's monthly quota (403 `PLAN_LIMIT` when used up).",
        ].join("\n"),
        headers: z.object({ ...creatingHeaderParams, Prefer }),
        responses: {
          "200": created("The scan result (Form A also carries `success: true`).", ScanResult, {
            scanEndpoint: true,
            headers: { "Content-Location": ContentLocationHeader },
          }),
          "202": created(
            "Accepted and still running: asked for with `Prefer: respond-async`, or the wait ran out. The scan completes and is stored; poll `Location` or await the callback. A client that disconnects stops the wait, never the scan.",
            ScanAccepted,
            {
              scanEndpoint: true,
              headers: { Location: LocationHeader, "Preference-Applied": PreferenceApplied },
            },
          ),
          ...apiErrors(400, 401, 403, 405, 409, 413, 422, 429, 500, 502, 503),
        },
        callbacks: { scanFinished: scanCallback },
      },
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
      docs: {
        operationId: "getScan",
        tags: ["Scans"],
        summary: "A stored scan",
        description: [
          "The scan by id: `status` moves `queued` → `running` → `completed` | `failed`; `scores`, `grade`, `checks` and `rendered` are null until it has completed, `error` says why a failed scan failed, and `callback` lists the delivery attempts of a scan with a `callback_url`. A key holder reads the scans of the key's workspace; another workspace's scan is 404 exactly as a missing one is. An anonymous scan is read only by its access link (`?access=<token>`, the `Location` its POST answered), with or without a key; without the token it is 404 to every key, and a request with neither a key nor a token is 401. Reads by an access link are counted per address in a window of their own (`RATE_LIMIT_ANONYMOUS_READS`, 600 an hour by default), not against the address's 10 anonymous scans.",
          "",
          "**Exports.** A finished scan is also served as a file, chosen by `?format=` or, without it, by `Accept` (q-values honoured; none, `*/*` or `application/*` mean JSON):",
          "",
          "| format | `Accept` | answered as | file |",
          "|---|---|---|---|",
          "| `json` | `application/json` | the stored scan in the request's envelope | |",
          "| `csv` | `text/csv` | `text/csv; charset=utf-8; header=present`, one row per check | `scan-<id>.csv` |",
          "| `sarif` | `application/sarif+json` | a SARIF 2.1.0 log | `scan-<id>.sarif` |",
          "| `junit` | `application/xml`, `application/junit+xml`, `text/xml` | `application/xml`, JUnit XML, one test case per check | `scan-<id>.xml` |",
          "| `pdf` | `application/pdf` | `application/pdf`: the client report, the dashboard's print view of the scan made by the service's Chromium, in the workspace's name and logo (`PUT /api/v1/branding`) | `scan-<id>.pdf` |",
          "",
          "`?format=` wins over `Accept`. A PDF is made on request (a second or two); the service makes a few at once and answers 503 when it has no Chromium or is busy beyond the wait. An `Accept` that names none of these is 406; an export of a scan still queued or running is 409 (its JSON answers the status); an export of a scan whose check list retention dropped is 410. Errors are JSON in the request's envelope.",
        ].join("\n"),
        headers: z.object(conditionalHeaderParams),
        responses: {
          "200": {
            ...record("The stored scan, or its export.", StoredScan),
            // the JSON carries the revalidation headers; an export is a download (Content-Disposition)
            headers: z.object({
              ...apiHeaders,
              ETag: revalidationHeaders.ETag.optional(),
              "Cache-Control": revalidationHeaders["Cache-Control"].optional(),
              Vary: revalidationHeaders.Vary,
              "Content-Disposition": ContentDisposition,
            }),
            content: {
              ...record("", StoredScan).content,
              "text/csv": {
                schema: z.string().meta({
                  description: `RFC 4180 CSV with a header row (\`${CSV_HEADER}\`), CRLF line ends, one row per check; a failed scan is one row with status \`error\`. A cell a spreadsheet would run as a formula (starting with \`=\`, \`+\`, \`-\`, \`@\`, tab or CR) is prefixed with \`'\`.`,
                  example: `${CSV_HEADER}\r\nhttps://example.com/,https://example.com/,…,full,2025-03-01T10:20:30.456Z,seo,title,Page has a title,fail,critical,0,6,The page has no <title>.,Add a <title>.\r\n`,
                }),
              },
              "application/sarif+json": { schema: SarifLog },
              "application/xml": {
                schema: z.string().meta({
                  description:
                    "JUnit XML (`testsuites`): one `testsuite` per area (`SEO checks of <url>`), one `testcase` per check; `failure` (type `fail` or `warn`) for a check that did not pass, `skipped` for one that did not apply; valid against the Ant JUnit XSD and the Jenkins xUnit junit-10.xsd. A failed scan is one test case in `error`.",
                }),
              },
              "application/pdf": {
                schema: z.string().meta({
                  format: "binary",
                  description:
                    "The client report: grade, scores and every check's result, in the workspace's name and logo.",
                }),
              },
            },
          },
          "304": notModified(),
          ...apiErrors(400, 401, 404, 405, 406, 409, 410, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, req, res }) => {
      // one URL, several representations: a cache keys them on Accept
      res.vary("Accept");
      const viewer = caller.kind === "anonymous" ? null : caller.workspaceId;
      const scan = await scans.get(params.id, viewer, query.access);
      const format = exportFormatFor(query.format, req.get("accept"));
      if (format === "pdf") {
        const stored = toStoredScan(scan);
        assertExportable("pdf", stored);
        return sendPdf(res, `scan-${scan.id}`, await scanPdf(stored, viewer));
      }
      if (format !== "json") return sendExport(res, format, toStoredScan(scan));
      // a callback URL may carry the receiver's own token: only the scan's owner is shown it
      // (an anonymous scan has none, so its readers never see the callback)
      const ownCallback = scan.callbackUrl && viewer !== null && scan.workspaceId === viewer;
      const callback = ownCallback ? toCallbackDelivery(scan, await scans.deliveries(scan.id)) : undefined;
      // the tag follows the scan's state (and its callback's): a poll of a running scan is a 304 until it moves
      return reply({ ...toStoredScan(scan), callback }, { revalidatable: true });
    },
  ),
];
