import type { Response } from "express";
import type { AccountCaller } from "../domain/authenticate";
import { FixInput, GenerateInput } from "../domain/generator-schemas";
import type { GeneratorTools } from "../domain/generator-tools";
import type { ToolContext } from "../domain/page-tools";
import { type Route, route } from "../http/route";

const FIX_HINT =
  'Send {"url": "https://example.com", "issues": ["llms-txt", "structured-data"]} as JSON; issues is optional.';
const GENERATE_HINT =
  'Send {"url": "https://example.com", "content_type": "faq" | "blog" | "product", "topic": "..."} as JSON; topic is optional.';

/**
 * The key holder and request behind a call; a client that goes away stops the wait, not the
 * scan, and is answered all the same (what its retry with an Idempotency-Key receives).
 */
const contextOf = (caller: AccountCaller, res: Response): ToolContext => {
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  return { caller, requestId: res.locals.requestId, signal: gone.signal, urlForm: res.locals.form };
};

/**
 * POST /api/v1/fix and POST /api/v1/generate: the aeo_fix and aeo_generate tools over REST
 * (beyond docs/spec/public-scanning-api.md), with the same inputs and outputs, in the request's envelope. Each runs a
 * scan of the page (stored, owned by the key's user, counted in the monthly quota) and the
 * generators over its snapshot. `url` is read as POST /api/v1/scan reads it in each form.
 */
export const generatorRoutes = (generators: GeneratorTools): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/fix",
      authorization: "account",
      body: { schema: FixInput, hint: FIX_HINT },
      idempotent: true,
    },
    async ({ caller, body: input, res }) => {
      const context = contextOf(caller, res);
      const { data } = await generators.fix(input, context);
      return data;
    },
  ),

  route(
    {
      method: "post",
      path: "/api/v1/generate",
      authorization: "account",
      body: { schema: GenerateInput, hint: GENERATE_HINT },
      idempotent: true,
    },
    async ({ caller, body: input, res }) => {
      const context = contextOf(caller, res);
      const { data } = await generators.generate(input, context);
      return data;
    },
  ),
];
