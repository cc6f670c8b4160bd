import { type PageMeta, successBody } from "@scan/contract";
import type { Request, Response } from "express";
import { sendRevalidatable } from "./conditional";
import { sendPage } from "./pagination";

type ReplyOptions = {
  /** 200 unless given */
  status?: number;
  headers?: Record<string, string>;
  /** Form A carries `success: true` as well (the scan endpoint, docs/spec/public-scanning-api.md §2.1) */
  scanEndpoint?: boolean;
  /** more of `meta`: beside Form A's `requestId`, and as Form B's own `meta` */
  meta?: Record<string, unknown>;
  /** with an `ETag` a client revalidates (`If-None-Match` answers 304): http/conditional.ts */
  revalidatable?: boolean;
};

/** A handler's data answered otherwise than as a plain 200: another status, headers, more meta, an ETag. */
export class Reply {
  constructor(
    readonly data: unknown,
    readonly options: ReplyOptions,
  ) {}
}

/** A page of a list: its `Link` header and `ETag` (http/pagination.ts). */
export class Page {
  constructor(
    readonly items: readonly unknown[],
    readonly meta: PageMeta,
  ) {}
}

export const reply = (data: unknown, options: ReplyOptions): Reply => new Reply(data, options);

export const pageOf = (items: readonly unknown[], meta: PageMeta): Page => new Page(items, meta);

/**
 * What a handler returns: its data (a 200 in the request's envelope), a `Reply` or a `Page`;
 * or nothing once it has answered on `res` itself (a stream, a file, a redirect, a 204).
 */
export type Answer = Reply | Page | object | string | number | boolean | null | undefined;

/** The request's envelope around data: Form A with the request id in `meta`, Form B without. */
const envelope = (res: Response, data: unknown, { scanEndpoint = false, meta }: ReplyOptions): object => {
  const form = res.locals.form;
  if (form === "A") return successBody(form, data, { ...meta, requestId: res.locals.requestId }, { scanEndpoint });
  return meta ? { ...successBody(form, data), meta } : successBody(form, data);
};

/** Sends a handler's answer; the one place a route's data is put in its envelope. */
export const sendAnswer = async (req: Request, res: Response, answer: Answer): Promise<void> => {
  if (answer === undefined) {
    if (!res.headersSent) throw new Error(`${req.method} ${req.path}: the handler returned nothing and sent nothing`);
    return;
  }
  if (answer instanceof Page) return sendPage(req, res, answer.items, answer.meta);
  const { data, options } = answer instanceof Reply ? answer : new Reply(answer, {});
  for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
  const body = envelope(res, data, options);
  if (options.revalidatable) return sendRevalidatable(req, res, body, options.status);
  res.status(options.status ?? 200).json(body);
};
