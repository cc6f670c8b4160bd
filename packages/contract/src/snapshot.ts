import { z } from "zod";
import { RenderFailureCode } from "./render-failure";

/** One response in the document's redirect chain. */
export const RedirectHop = z.object({
  url: z.string(),
  status: z.number().int(),
  location: z.string().nullable(),
});
export type RedirectHop = z.infer<typeof RedirectHop>;

/**
 * A same-origin text resource fetched beside the render (robots.txt, llms.txt, sitemap).
 * `status` 0 means the fetch itself failed (refused, timed out); `error` says why.
 * `body` is capped by the worker; `truncated` says when the cap cut it.
 */
export const TextResource = z.object({
  url: z.string(),
  status: z.number().int(),
  contentType: z.string().nullable(),
  body: z.string().nullable(),
  truncated: z.boolean().default(false),
  error: z.string().nullable().default(null),
  /** the fetch gave up after more than five redirects (RFC 9309: robots.txt is then unavailable) */
  tooManyRedirects: z.boolean().optional(),
});
export type TextResource = z.infer<typeof TextResource>;

/** A request the browser made while rendering (documents, scripts, styles, images...). */
export const Subresource = z.object({
  url: z.string(),
  resourceType: z.string(),
  /** true when the worker aborted it (blocked type or refused address); it was still requested by the page */
  blocked: z.boolean(),
});
export type Subresource = z.infer<typeof Subresource>;

/** The page fetched again with an AI crawler's user agent (full mode only). */
export const BotFetch = z.object({
  bot: z.string(),
  userAgent: z.string(),
  status: z.number().int(),
  body: z.string().nullable(),
  error: z.string().nullable(),
});
export type BotFetch = z.infer<typeof BotFetch>;

/**
 * Everything the worker captured about one page, once per scan. Checks are pure functions of
 * a snapshot and the scan time, so this is the whole contract between capture and judgement.
 */
export const Snapshot = z.object({
  requestedUrl: z.string(),
  finalUrl: z.string(),
  /** final document status; 0 when no response arrived */
  status: z.number().int(),
  /** every response that redirected, in order; the final response is not in the list */
  redirects: z.array(RedirectHop),
  redirectLoop: z.boolean(),
  /** final document response headers, names lower-cased */
  headers: z.record(z.string(), z.string()),
  ttfbMs: z.number().nonnegative().nullable(),
  /** the HTML as served, before any script ran */
  rawHtml: z.string(),
  /** the serialised DOM after the page settled; the served HTML as parsed when not rendered */
  renderedHtml: z.string(),
  /** whether the page's scripts ran in a browser before it was judged */
  rendered: z.boolean(),
  /** why it was or was not rendered */
  renderReason: z.string(),
  /** set when a render was attempted and failed, so the page was judged on its served HTML */
  renderFailure: RenderFailureCode.optional(),
  robotsTxt: TextResource.nullable(),
  llmsTxt: TextResource.nullable(),
  sitemap: TextResource.nullable(),
  subresources: z.array(Subresource),
  botFetches: z.array(BotFetch),
});
export type Snapshot = z.infer<typeof Snapshot>;
