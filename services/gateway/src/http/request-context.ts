import { randomUUID } from "node:crypto";
import { parseResponseForm, type ResponseForm } from "@scan/contract";
import type { RequestHandler } from "express";

declare global {
  namespace Express {
    interface Locals {
      form: ResponseForm;
      /** the request named its form in X-Response-Form (a key's default form does not override it) */
      formExplicit: boolean;
      requestId: string;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Request id (the caller's X-Request-Id when it is sane) and the envelope form, for every request. */
export const requestContext =
  (defaultForm: ResponseForm): RequestHandler =>
  (req, res, next) => {
    const incoming = req.get("x-request-id");
    res.locals.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const header = req.get("x-response-form");
    res.locals.form = parseResponseForm(header, defaultForm);
    // the header named a form when the fallback makes no difference
    res.locals.formExplicit = parseResponseForm(header, "A") === parseResponseForm(header, "B");
    res.setHeader("X-Request-Id", res.locals.requestId);
    next();
  };
