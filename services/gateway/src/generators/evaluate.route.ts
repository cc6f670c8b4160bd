import { AEO2_META, EvaluateRequest, EvaluationMeta, EvaluationOutput, evaluateAeo2 } from "@scan/citation-evaluator";
import { formASuccess, formBSuccess, RequestMeta } from "@scan/contract";
import { z } from "zod";
import { KEY_REACH } from "../access/key-scope";
import { apiErrors, apiHeaders, commonHeaderParams } from "../docs/common";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { RunObservationReader } from "../visibility";

const BODY_HINT =
  'Send a JSON object with any of "citations" (up to 100 of {brandName, targetUrl, responseText, citedSources, position}) or "runId" (a visibility run whose answers are the citations), "evidence" (up to 100 of {sourceType, url, snippet, supportsClaim}) and "revenue" ({monthlyAiImpressions, conversionRate, revenuePerConversion, grossMargin, attributionCoverage}; ratios from 0 to 1).';

/**
 * POST /api/v1/aeo-2/evaluate (docs/spec/public-scanning-api.md §2.7, §4.2): the deterministic AEO 2.0 evaluator.
 * Form A: `{ok, data, meta: {version, provenance, requestId}}`. Form B: `{success, data, meta:
 * {version, provenance}}`: docs/spec/public-scanning-api.md §2.7 makes version and provenance part of the evaluator's
 * output, so Form B carries them too (the request id is in the X-Request-Id header).
 */
/** With `runId`: the run and the samples its observations came from, in the order of `data.citations`. */
const RunMeta = z.object({
  run: z
    .object({ id: z.uuid(), sampleIds: z.array(z.uuid()) })
    .optional()
    .meta({ description: "With `runId`: the run, and its completed samples in the order of `data.citations`." }),
});

export const evaluateRoutes = (runs: RunObservationReader): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/aeo-2/evaluate",
      reach: KEY_REACH.bodyRun,
      authorization: "account",
      body: { schema: EvaluateRequest, hint: BODY_HINT },
      docs: {
        operationId: "evaluateAeo2",
        tags: ["Evaluator"],
        summary: "Score citation, evidence and revenue observations (AEO 2.0)",
        description: [
          "A pure, deterministic scorer over observations the caller supplies: it fetches nothing and does not verify where they came from (`meta.provenance` says so; `meta.version` is `2.0`).",
          "",
          "Every body field is optional (`{}` is valid; `null` counts as absent); unknown fields are refused at every level. Up to 100 citations and 100 evidence items; ratios are decimals from 0 to 1. Results come one per input item, in order; recommendations highest impact first. The formulas are in docs/api.md.",
          "",
          "`runId` instead of `citations` scores a stored visibility run of the caller's workspace: each completed sample is one observation (the brand's main name, the site's address, the answer's text, its cited URLs in the engine's order, the brand's rank among the companies named), in the order of the run's samples list, and `meta.run` names the samples. A run of another workspace, or outside a client-scoped key's client, is 404; `citations` beside `runId` is 400.",
          "",
          "Both forms carry `meta: {version, provenance}`; Form A adds `requestId`.",
        ].join("\n"),
        headers: z.object(commonHeaderParams),
        responses: {
          "200": {
            description: "The scores.",
            headers: z.object(apiHeaders),
            content: {
              "application/json": {
                schema: z.xor([
                  formASuccess(EvaluationOutput, EvaluationMeta.extend(RequestMeta.shape).extend(RunMeta.shape)),
                  formBSuccess(EvaluationOutput, EvaluationMeta.extend(RunMeta.shape)),
                ]),
              },
            },
          },
          ...apiErrors(400, 401, 403, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ body: input, caller }) => {
      const meta = { version: AEO2_META.version, provenance: AEO2_META.provenance };
      if (!input.runId) return reply(evaluateAeo2(input), { meta });
      const run = await runs(caller.workspaceId, input.runId);
      return reply(evaluateAeo2({ ...input, citations: run.observations }), {
        meta: { ...meta, run: { id: run.runId, sampleIds: run.sampleIds } },
      });
    },
  ),
];
