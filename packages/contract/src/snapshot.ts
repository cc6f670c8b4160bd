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

/** One axe-core rule the rendered page violates, kept compact: rule, impact, how many nodes, a few of them. */
export const AxeViolation = z.object({
  rule: z.string(),
  impact: z.string().nullable(),
  help: z.string(),
  nodes: z.number().int().nonnegative(),
  /** CSS selectors of the first few nodes */
  targets: z.array(z.string()),
});
export type AxeViolation = z.infer<typeof AxeViolation>;

/** A tool the page registered for agents (WebMCP), as Chromium reported it. */
export const WebMcpTool = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.unknown(),
  /** a `<form toolname>` (declarative) rather than a script's registration */
  declarative: z.boolean(),
});
export type WebMcpTool = z.infer<typeof WebMcpTool>;

/**
 * WebMCP as the render saw it. `supported` false: this Chromium exposes no `modelContext`, so
 * nothing about the page's tools can be known.
 */
export const WebMcpCapture = z.object({
  supported: z.boolean(),
  tools: z.array(WebMcpTool),
  /** Chromium's own findings on annotated forms (FormModelContext… issues): error type and element */
  formIssues: z.array(z.object({ type: z.string(), element: z.string().nullable() })),
});
export type WebMcpCapture = z.infer<typeof WebMcpCapture>;

/** Layout shifts during the render, grouped in session windows as Lighthouse computes CLS. */
export const LayoutShiftCapture = z.object({
  /** the largest session window's sum */
  cls: z.number().nonnegative(),
  /** shifts counted (those without recent input) */
  shifts: z.number().int().nonnegative(),
});
export type LayoutShiftCapture = z.infer<typeof LayoutShiftCapture>;

/**
 * What an AI agent meets in the rendered page, measured during a full scan's render. A part is
 * null when it could not be measured (the page's scripts kept the page busy, or it closed).
 */
export const AgentCapture = z.object({
  axe: z.object({ version: z.string(), violations: z.array(AxeViolation) }).nullable(),
  /**
   * axe is null because it had not finished in the time the scan had left for it (a page or a
   * machine that busy): that time in ms. Absent when axe finished, or could not run at all.
   */
  axeUnfinishedAfterMs: z.number().int().nonnegative().optional(),
  webmcp: WebMcpCapture.nullable(),
  layoutShift: LayoutShiftCapture.nullable(),
});
export type AgentCapture = z.infer<typeof AgentCapture>;

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
  /** full scans that rendered: the agentic-browsing measurements of the render */
  agent: AgentCapture.optional(),
});
export type Snapshot = z.infer<typeof Snapshot>;
