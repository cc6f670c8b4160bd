import { AEO2_META, EvaluateRequest, evaluateAeo2 } from "@scan/citation-evaluator";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";

const BODY_HINT =
  'Send a JSON object with any of "citations" (up to 100 of {brandName, targetUrl, responseText, citedSources, position}), "evidence" (up to 100 of {sourceType, url, snippet, supportsClaim}) and "revenue" ({monthlyAiImpressions, conversionRate, revenuePerConversion, grossMargin, attributionCoverage}; ratios from 0 to 1).';

/**
 * POST /api/v1/aeo-2/evaluate (docs/spec/public-scanning-api.md §2.7, §4.2): the deterministic AEO 2.0 evaluator.
 * Form A: `{ok, data, meta: {version, provenance, requestId}}`. Form B: `{success, data, meta:
 * {version, provenance}}`: docs/spec/public-scanning-api.md §2.7 makes version and provenance part of the evaluator's
 * output, so Form B carries them too (the request id is in the X-Request-Id header).
 */
export const evaluateRoutes = (): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/aeo-2/evaluate",
      authorization: "account",
      body: { schema: EvaluateRequest, hint: BODY_HINT },
    },
    ({ body: input }) =>
      reply(evaluateAeo2(input), { meta: { version: AEO2_META.version, provenance: AEO2_META.provenance } }),
  ),
];
