import {
  AppError,
  RunIdParam,
  RunListQuery,
  RunReadQuery,
  SampleListQuery,
  SiteIdParam,
  StartRunRequest,
  VisibilityRunView,
  VisibilitySampleView,
} from "@scan/contract";
import { z } from "zod";
import { apiErrors, apiHeaders, commonHeaders, LIST_RULES, page, pageNotModified, record } from "../docs/common";
import { preferredType } from "../http/accept";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import { sendStreamedFile } from "../http/streamed-file";
import { sendPdf } from "../scans";
import type { RunService } from "./run-service";

const TAGS: ["Visibility"] = ["Visibility"];
const SITE_HINT = "Use a site id from GET /api/v1/sites.";
const RUN_HINT = "Use a run id from GET /api/v1/sites/{id}/visibility/runs.";
const LIST_HINT = "page ≥ 1; limit from 1 to 100.";
const SAMPLE_HINT =
  "page ≥ 1; limit from 1 to 100; engine: chatgpt, claude, perplexity or gemini; prompt_id: a prompt's UUID; status: queued, running, completed, failed or cancelled; format: json or csv.";

/** The samples as JSON (the envelope) or as a CSV file: `?format=` wins, else Accept; 406 when it accepts neither. */
const SAMPLE_TYPES = ["application/json", "text/csv"] as const;
const sampleFormatOf = (format: "json" | "csv" | undefined, accept: string | undefined): "json" | "csv" => {
  if (format) return format;
  const type = preferredType(accept, SAMPLE_TYPES);
  if (type === null)
    throw new AppError(
      "not_acceptable",
      `This endpoint cannot answer in any type Accept names (${accept?.slice(0, 120)})`,
      "Ask for application/json or text/csv, or name the format with ?format=json|csv.",
    );
  return type === "text/csv" ? "csv" : "json";
};

const SAMPLE_CSV = [
  "With `format=csv` (or an `Accept` that prefers `text/csv`, negotiated as for a stored scan's exports; an `Accept` naming neither type is 406): every sample the filters keep, `page` and `limit` aside, as the file `visibility-run-<id>-samples.csv` (RFC 4180, UTF-8 with a byte-order mark, CRLF) with the columns `prompt, engine, sample_index, status, brand_mentioned, brand_cited, cited_page, citations, search_queries, mentions, model, tokens, cost_usd, answered_at`.",
  "`citations` are the cited URLs separated by a space, `search_queries` and `mentions` (the companies named, in order) separated by ` | `; `answered_at` is empty for a sample not answered. A text cell that a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`.",
].join(" ");
const NOT_YOURS = "Another workspace's or an unknown run is 404.";

/** The run as JSON or as its client report: `?format=` wins, else Accept; 406 when it accepts neither. */
const RUN_TYPES = ["application/json", "application/pdf"] as const;
const runFormatOf = (format: "json" | "pdf" | undefined, accept: string | undefined): "json" | "pdf" => {
  if (format) return format;
  const type = preferredType(accept, RUN_TYPES);
  if (type === null)
    throw new AppError(
      "not_acceptable",
      `This endpoint cannot answer in any type Accept names (${accept?.slice(0, 120)})`,
      "Ask for application/json or application/pdf, or name the format with ?format=json|pdf.",
    );
  return type === "application/pdf" ? "pdf" : "json";
};

const RUN_PDF = [
  "With `format=pdf` (or an `Accept` that prefers `application/pdf`; q-values honoured, none, `*/*` or `application/*` mean JSON; an `Accept` naming neither is 406): the run's client report, the dashboard's print view of the run made by the service's Chromium, in the workspace's name and logo (`PUT /api/v1/branding`), as `visibility-run-<id>.pdf`: the site, the run's date and engines, per engine the mention and citation rates with their 95 % intervals and sample counts, the change against the previous run where Fisher's test calls it one, share of voice, and the most cited domains and pages with the brand's own marked.",
  "A run still `queued` or `running` has no report yet: 409 with `Retry-After`; a failed or cancelled run has none: 404. The PDF is made on request (a few seconds); 503 with `Retry-After` when the service has no Chromium or dashboard build, or is busy beyond the wait.",
].join(" ");

const RunLocation = z.string().meta({
  description: "Where to follow the run: `/api/v1/visibility/runs/<id>`.",
  header: { id: "VisibilityRunLocation" },
});

const MEASURES = [
  "`measures` are over the samples completed so far: per engine, and per prompt and engine, the brand's `mention_rate` and `citation_rate` (successes over samples, with the Wilson score 95 % interval `low`–`high`), `average_position` (the brand's mean order of first mention among the companies named, where named), `share_of_voice` (each company's answers naming it over all namings of the brand and its competitors), and the most cited `top_domains` and `top_pages` (10 each).",
  "",
  "`versus_previous` compares each engine's mention and citation rates with the site's previous completed run by Fisher's exact test (two-sided): `changed` is true only when p < 0.05, so a difference a handful of samples can make by chance is not called a change; `direction` is `flat` unless changed.",
].join("\n");

/**
 * /api/v1/sites/:id/visibility/runs and /api/v1/visibility/runs/:id…: runs that ask the AI engines
 * a site's prompts and store each answer. Reads for any account of the workspace; starting and
 * cancelling for keys and members (a viewer's are 403, as everywhere).
 */
export const runRoutes = (
  runs: RunService,
  /** the completed run's client report: the PDF of its print view, in the workspace's name and logo */
  runPdf: (workspaceId: string, runId: string) => Promise<Buffer>,
): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/visibility/runs",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: StartRunRequest, hint: "Send no body, or {}.", report: "names", optional: true },
      docs: {
        operationId: "startVisibilityRun",
        tags: TAGS,
        summary: "Ask the AI engines a site's prompts",
        description: [
          "Starts a run and answers 202 at once; follow it at `Location`. The run asks every prompt of the site, of each engine of its profile that has a key (the workspace's own, else the service's), `samples_per_prompt` times, and stores each answer once: its text, citations, search queries, the companies it names in order, whether the brand was named and cited and which page. Each answer also becomes a citation track (`GET /api/v1/citations`).",
          "",
          "Samples run on the scan workers below every scan and audit, a few at a time per engine; a rate limit's `Retry-After` is waited out, an outage retried with backoff, a refused key fails its samples at once. Each sample is checked against the workspace's monthly budget (`VISIBILITY_BUDGET_USD_<PLAN>`) before it is asked: a run that would pass it ends `failed` with error `budget_exhausted`.",
          "",
          "409 when a run of the site is under way; 400 when the site tracks no prompts or no engine of its profile has a key; 403 `PLAN_LIMIT` when the plan has no budget or this month's is spent.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "202": record("The run, `queued`.", VisibilityRunView, { headers: { Location: RunLocation } }),
          ...apiErrors(400, 401, 403, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, res }) => {
      const run = await runs.start(caller, params.id, res.locals.requestId);
      return reply(run, { status: 202, headers: { location: `/api/v1/visibility/runs/${run.id}` } });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/visibility/runs",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      query: { schema: RunListQuery, hint: LIST_HINT, report: "names" },
      docs: {
        operationId: "listVisibilityRuns",
        tags: TAGS,
        summary: "A site's visibility runs",
        description: `The site's runs with their progress and spend, without measures (read one run for them). Another workspace's or an unknown site is 404. ${LIST_RULES}`,
        headers: commonHeaders,
        responses: {
          "200": page("A page of runs.", VisibilityRunView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { runs: items, meta } = await runs.list(caller.workspaceId, params.id, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/visibility/runs/:id",
      authorization: "account",
      params: { schema: RunIdParam, hint: RUN_HINT },
      query: { schema: RunReadQuery, hint: "format: json or pdf (or ask by Accept).", report: "names" },
      docs: {
        operationId: "getVisibilityRun",
        tags: TAGS,
        summary: "A visibility run: progress, spend and measures, or its client report",
        description: `\`status\` moves \`queued\` → \`running\` → \`completed\` (or \`failed\`, or \`cancelled\`). \`progress\` counts the samples planned, completed (\`done\`) and failed; \`tokens\` and \`cost_usd\` are summed from the stored samples.\n\n${MEASURES}\n\n${RUN_PDF}\n\n${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": ((json) => ({
            ...json,
            description: `${json.description} With \`format=pdf\`: its client report.`,
            headers: z.object({
              ...apiHeaders,
              "Content-Disposition": z.string().optional().meta({
                description: 'With `format=pdf`: `attachment; filename="visibility-run-<id>.pdf"`.',
              }),
            }),
            content: {
              ...json.content,
              "application/pdf": {
                schema: z.string().meta({
                  format: "binary",
                  description: "The client report of the run, in the workspace's name and logo.",
                }),
              },
            },
          }))(record("The run.", VisibilityRunView)),
          ...apiErrors(400, 401, 404, 405, 406, 409, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, req, res }) => {
      // one URL, two representations: a cache keys them on Accept
      res.vary("Accept");
      if (runFormatOf(query.format, req.get("accept")) === "pdf")
        return sendPdf(res, `visibility-run-${params.id}`, await runPdf(caller.workspaceId, params.id));
      return runs.get(caller.workspaceId, params.id);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/visibility/runs/:id/samples",
      authorization: "account",
      params: { schema: RunIdParam, hint: RUN_HINT },
      query: { schema: SampleListQuery, hint: SAMPLE_HINT, report: "names" },
      docs: {
        operationId: "listVisibilitySamples",
        tags: TAGS,
        summary: "A visibility run's answers",
        description: `${SAMPLE_CSV}\n\nEach sample: the prompt, the engine, its index, its state and attempts, and once completed the answer text, the model, the citations (normalised URL, domain, the engine's position, title), the search queries the engine reported, the companies named in order (\`mentions\`), \`brand_mentioned\`, \`brand_cited\`, \`cited_page\`, tokens and cost; a failed one its \`error_kind\` (rate_limited, unavailable, timeout, refused, malformed, auth, bad_request). Ordered by prompt, engine and index; \`engine\`, \`prompt_id\` and \`status\` filter. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": ((json) => ({
            ...json,
            description: `${json.description} With \`format=csv\`: the samples as a CSV file.`,
            headers: z.object({
              ...apiHeaders,
              "Content-Disposition": z.string().optional().meta({
                description: 'With `format=csv`: `attachment; filename="visibility-run-<id>-samples.csv"`.',
              }),
            }),
            content: { ...json.content, "text/csv": { schema: z.string().meta({ description: "The CSV file." }) } },
          }))(page("A page of samples.", VisibilitySampleView)),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 406, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query, req, res }) => {
      // one URL, two representations: a cache keys them on Accept
      res.vary("Accept");
      if (sampleFormatOf(query.format, req.get("accept")) === "csv")
        return sendStreamedFile(
          res,
          {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="visibility-run-${params.id}-samples.csv"`,
          },
          await runs.samplesAsCsv(caller.workspaceId, params.id, query),
        );
      const { samples, meta } = await runs.samples(caller.workspaceId, params.id, query);
      return pageOf(samples, meta);
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/visibility/runs/:id",
      authorization: "account",
      params: { schema: RunIdParam, hint: RUN_HINT },
      docs: {
        operationId: "cancelVisibilityRun",
        tags: TAGS,
        summary: "Cancel a visibility run",
        description: `Cancels a run under way: samples not yet asked are cancelled, those being asked finish and are kept. An ended run is answered as it is. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The run as it now stands.", VisibilityRunView),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    ({ caller, params }) => runs.cancel(caller.workspaceId, params.id),
  ),
];
