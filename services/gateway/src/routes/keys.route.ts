import {
  AppError,
  CreateKeyRequest,
  KeyIdParam,
  PageQuery,
  pageBody,
  successBody,
  validationError,
} from "@scan/contract";
import { type Request, type Response, Router } from "express";
import type { UserCaller } from "../domain/authenticate";
import type { KeyService } from "../domain/key-service";
import { methodNotAllowed } from "../infra/http";

const BODY_HINT = 'Send {"name": "ci", "default_form": "A" | "B" | null} as JSON; both fields are optional.';

const userOf = (res: Response): UserCaller => {
  const caller = res.locals.caller;
  // the access middleware lets only JWT holders this far
  if (caller.kind !== "user") throw new AppError("unauthenticated", "The key endpoints need a JWT");
  return caller;
};

/** GET/POST /api/v1/keys and DELETE /api/v1/keys/:id (docs/spec/public-scanning-api.md §4.7), for the user a JWT names. */
export const keyRoutes = (keys: KeyService): Router => {
  const router = Router();

  router
    .route("/api/v1/keys")
    .get(async (req: Request, res: Response) => {
      const user = userOf(res);
      const query = PageQuery.safeParse(req.query);
      if (!query.success) throw validationError(query.error, "page ≥ 1; limit from 1 to 100.");
      const { keys: items, meta } = await keys.list({ id: user.userId, plan: user.plan }, query.data);
      res.json(pageBody(res.locals.form, items, { ...meta }));
    })
    .post(async (req: Request, res: Response) => {
      const user = userOf(res);
      // no body at all is an empty request: every field is optional
      const raw = req.body === undefined ? {} : req.body;
      if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
        throw new AppError("invalid_request", "The request body must be a JSON object", BODY_HINT);
      }
      const input = CreateKeyRequest.safeParse(raw);
      if (!input.success) throw validationError(input.error, BODY_HINT);
      const created = await keys.create({ id: user.userId, plan: user.plan }, input.data);
      // the only response that ever holds the key: no cache may keep it
      res.setHeader("Cache-Control", "no-store");
      res.status(201).json(successBody(res.locals.form, created, { requestId: res.locals.requestId }));
    })
    .all(methodNotAllowed(["GET", "POST"]));

  router
    .route("/api/v1/keys/:id")
    .delete(async (req: Request, res: Response) => {
      const user = userOf(res);
      const params = KeyIdParam.safeParse(req.params);
      if (!params.success) throw validationError(params.error, "Use a key id from GET /api/v1/keys.");
      const revoked = await keys.revoke({ id: user.userId, plan: user.plan }, params.data.id);
      res.json(successBody(res.locals.form, revoked, { requestId: res.locals.requestId }));
    })
    .all(methodNotAllowed(["DELETE"]));

  return router;
};
