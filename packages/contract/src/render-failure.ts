import { z } from "zod";

/**
 * Why a page that was to be rendered in Chromium (every full scan, and quick scans of pages
 * that build themselves with scripts) was judged on its HTML as served instead. The codes are
 * stored with the scan and label the worker's `scan_render_fallbacks_total`; add, never rename.
 */
export const RenderFailureCode = z.enum(["dom_unreadable", "parse_unfinished"]);
export type RenderFailureCode = z.infer<typeof RenderFailureCode>;

/** What a user reads of each code: what happened, and that the verdicts rest on the served HTML. */
export const RENDER_FAILURE_MESSAGES: Record<RenderFailureCode, string> = {
  dom_unreadable:
    "The page's scripts kept the browser busy, so its rendered DOM could not be read: the page was judged on its HTML as served.",
  parse_unfinished:
    "The browser had not finished parsing the page in time (a slow script, or a loaded machine): the page was judged on its HTML as served.",
};

/** A render that failed, as the API answers it. */
export const RenderFailure = z.object({
  code: RenderFailureCode,
  message: z.string(),
});
export type RenderFailure = z.infer<typeof RenderFailure>;

/** The API's view of a stored code; a code this version does not know reads as none. */
export const renderFailureOf = (code: string | null | undefined): RenderFailure | null => {
  const parsed = RenderFailureCode.safeParse(code);
  return parsed.success ? { code: parsed.data, message: RENDER_FAILURE_MESSAGES[parsed.data] } : null;
};
