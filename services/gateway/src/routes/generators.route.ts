import { AppError, successBody } from "@scan/contract";
import { type Request, type Response, Router } from "express";
import { FixInput, GenerateInput } from "../domain/generator-schemas";
import type { GeneratorTools } from "../domain/generator-tools";
import type { ToolContext } from "../domain/page-tools";
import { methodNotAllowed } from "../infra/http";
import { validatedBody } from "../infra/request-input";

const FIX_HINT =
  'Send {"url": "https://example.com", "issues": ["llms-txt", "structured-data"]} as JSON; issues is optional.';
const GENERATE_HINT =
  'Send {"url": "https://example.com", "content_type": "faq" | "blog" | "product", "topic": "..."} as JSON; topic is optional.';

/** The key holder and request behind a call; a client that goes away stops the wait, not the scan. */
const contextOf = (res: Response): ToolContext => {
  const caller = res.locals.caller;
  // the access middleware lets only key holders this far; this keeps the rule next to its use
  if (caller.kind !== "key") throw new AppError("unauthenticated", "This endpoint needs an API key");
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
export const generatorRoutes = (generators: GeneratorTools): Router => {
  const router = Router();

  router
    .route("/api/v1/fix")
    .post(async (req: Request, res: Response) => {
      const input = validatedBody(FixInput, req, FIX_HINT);
      const context = contextOf(res);
      const { data } = await generators.fix(input, context);
      if (context.signal.aborted) return;
      res.status(200).json(successBody(res.locals.form, data, { requestId: res.locals.requestId }));
    })
    .all(methodNotAllowed(["POST"]));

  router
    .route("/api/v1/generate")
    .post(async (req: Request, res: Response) => {
      const input = validatedBody(GenerateInput, req, GENERATE_HINT);
      const context = contextOf(res);
      const { data } = await generators.generate(input, context);
      if (context.signal.aborted) return;
      res.status(200).json(successBody(res.locals.form, data, { requestId: res.locals.requestId }));
    })
    .all(methodNotAllowed(["POST"]));

  return router;
};
