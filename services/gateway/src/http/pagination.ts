import { type PageMeta, pageBody } from "@scan/contract";
import type { Request, Response } from "express";
import { sendRevalidatable } from "./conditional";

/** The last page of a list: 1 for an empty one. */
export const lastPageOf = ({ limit, total }: PageMeta): number => Math.max(1, Math.ceil(total / limit));

/**
 * The RFC 8288 `Link` header of a page: `first` and `last` always, `prev` past the first page
 * (the last page when the request went past the end), `next` while there is more. Each is an
 * absolute URL: the request's scheme and host (the proxy's `X-Forwarded-Proto` and
 * `X-Forwarded-Host` when TRUST_PROXY trusts it, as express reads them), its path as sent, and
 * its query with `page` set, every other parameter kept as it came.
 */
export const pageLinks = (req: Request, meta: PageMeta): string => {
  const [path = "", query = ""] = req.originalUrl.split("?", 2);
  const host = req.host;
  const origin = host ? `${req.protocol}://${host}` : "";
  const urlOf = (page: number) => {
    const params = new URLSearchParams(query);
    params.set("page", String(page));
    return `${origin}${path}?${params.toString()}`;
  };
  const last = lastPageOf(meta);
  const links: Array<[string, number]> = [];
  if (meta.page < last) links.push(["next", meta.page + 1]);
  if (meta.page > 1) links.push(["prev", Math.min(meta.page - 1, last)]);
  links.push(["first", 1], ["last", last]);
  return links.map(([rel, page]) => `<${urlOf(page)}>; rel="${rel}"`).join(", ");
};

/** A page of a list in the request's envelope, with its `Link` header, revalidatable by its `ETag`. */
export const sendPage = (req: Request, res: Response, items: readonly unknown[], meta: PageMeta): Promise<void> => {
  res.setHeader("Link", pageLinks(req, meta));
  return sendRevalidatable(req, res, pageBody(res.locals.form, items, meta, res.locals.requestId));
};
