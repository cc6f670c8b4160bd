import { AppError, validationError } from "@scan/contract";
import type { Request, Response } from "express";
import type { z } from "zod";
import type { KeyCaller } from "../domain/authenticate";

/** The API-key holder a request was authenticated as; the access middleware lets no one else this far. */
export const keyHolderOf = (res: Response): KeyCaller => {
  const caller = res.locals.caller;
  if (caller?.kind !== "key") throw new AppError("unauthenticated", "This endpoint needs an API key");
  return caller;
};

const describe = (error: z.ZodError, where: string): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === "unrecognized_keys")
        return `unknown ${where} ${issue.keys.map((key) => `"${key}"`).join(", ")}`;
      return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
    })
    .join("; ");

/** The query string through `schema`, or 400 naming the parameters at fault. */
export const parseQuery = <T extends z.ZodType>(schema: T, req: Request, hint: string): z.infer<T> => {
  const parsed = schema.safeParse(req.query);
  if (!parsed.success) throw new AppError("invalid_request", describe(parsed.error, "query parameter"), hint);
  return parsed.data;
};

/** The request's JSON body when it is an object; anything else (none, an array, a scalar) is 400. */
export const jsonObjectOf = (req: Request, hint: string): object => {
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new AppError(
      "invalid_request",
      "The request body must be a JSON object",
      `${hint} Content-Type must be application/json.`,
    );
  }
  return body;
};

/** The JSON body through `schema`, or 400: a body that is not a JSON object, or fields at fault. */
export const parseBody = <T extends z.ZodType>(schema: T, req: Request, hint: string): z.infer<T> => {
  const parsed = schema.safeParse(jsonObjectOf(req, hint));
  if (!parsed.success) throw new AppError("invalid_request", describe(parsed.error, "field"), hint);
  return parsed.data;
};

/** Like parseBody, with the validation error that lists every field at fault (Form B's `details`). */
export const validatedBody = <T extends z.ZodType>(schema: T, req: Request, hint: string): z.output<T> => {
  const parsed = schema.safeParse(jsonObjectOf(req, hint));
  if (!parsed.success) throw validationError(parsed.error, hint);
  return parsed.data;
};
