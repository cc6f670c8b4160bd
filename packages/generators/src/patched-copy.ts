import type { Snapshot, TextResource } from "@scan/contract";
import { type AiCatalogFix, withAiCatalogLink } from "./ai-catalog";
import type { JsonLdFix } from "./json-ld";
import type { TextFileFix } from "./llms-txt";
import { type WebMcpFormsFix, withWebMcpAnnotations } from "./webmcp-forms";

/** The generated files of one fix, each null when it is not returned. */
export type Generated = {
  llmsTxt: TextFileFix | null;
  jsonLd: JsonLdFix | null;
  robotsTxt: TextFileFix | null;
  aiCatalog: AiCatalogFix | null;
  webmcpForms: WebMcpFormsFix | null;
};

const JSON_LD_SCRIPT = /<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json[^>]*>[\s\S]*?<\/script\s*>/gi;

/** The page with its JSON-LD blocks replaced by a generated one (in the head, or first in the document). */
export const withJsonLd = (html: string, script: string): string => {
  const without = html.replace(JSON_LD_SCRIPT, "");
  return /<\/head\s*>/i.test(without) ? without.replace(/<\/head\s*>/i, `${script}</head>`) : `${script}${without}`;
};

const served = (snapshot: Snapshot, file: TextFileFix): TextResource => ({
  url: new URL(file.path, snapshot.finalUrl).href,
  status: 200,
  contentType: file.contentType,
  body: file.content,
  truncated: false,
  error: null,
});

/** The page's HTML with the generated markup in place: JSON-LD, the ai-catalog link, the forms' annotations. */
const patchedHtml = (html: string, files: Generated): string => {
  let patched = html;
  if (files.jsonLd) patched = withJsonLd(patched, files.jsonLd.html);
  if (files.aiCatalog?.link) patched = withAiCatalogLink(patched, files.aiCatalog.link);
  if (files.webmcpForms) patched = withWebMcpAnnotations(patched);
  return patched;
};

/**
 * A copy of the snapshot with the files in place, as the site would serve it once its owner has
 * published them: the page's HTML patched, llms.txt and robots.txt served at the origin. (The
 * ai-catalog.json itself is no part of a page's snapshot; recheckAiCatalog serves it.)
 */
export const applied = (snapshot: Snapshot, files: Generated): Snapshot => ({
  ...snapshot,
  ...(files.jsonLd || files.aiCatalog?.link || files.webmcpForms
    ? { rawHtml: patchedHtml(snapshot.rawHtml, files), renderedHtml: patchedHtml(snapshot.renderedHtml, files) }
    : {}),
  ...(files.llmsTxt ? { llmsTxt: served(snapshot, files.llmsTxt) } : {}),
  ...(files.robotsTxt ? { robotsTxt: served(snapshot, files.robotsTxt) } : {}),
});
