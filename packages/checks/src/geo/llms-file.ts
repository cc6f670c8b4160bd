import type { TextResource } from "@scan/contract";
import type { Page } from "../page";

/** The site's llms.txt when it has one, else why not (said as a sentence fragment). */
export type LlmsTxtFile = { file: TextResource; body: string } | { file: null; why: string };

const isHtml = (resource: TextResource, body: string): boolean =>
  (resource.contentType ?? "").toLowerCase().includes("html") || body.trimStart().startsWith("<");

/**
 * The llms.txt of the final origin: a 2xx that is not an HTML page. Sites that answer every
 * path with their HTML shell or a soft 404 page answer /llms.txt with 200 too; that is not an
 * llms.txt, and neither is an empty file.
 */
export const llmsTxtFile = (page: Page): LlmsTxtFile => {
  const resource = page.snapshot.llmsTxt;
  if (!resource) return { file: null, why: "llms.txt was not fetched" };
  if (resource.status === 0)
    return { file: null, why: `/llms.txt could not be fetched (${resource.error ?? "no answer"})` };
  if (resource.status < 200 || resource.status >= 300)
    return { file: null, why: `/llms.txt answers ${resource.status}` };
  const body = resource.body ?? "";
  if (isHtml(resource, body))
    return {
      file: null,
      why: `/llms.txt answers ${resource.status} with an HTML page (${resource.contentType ?? "markup"}), not a text file, so the site has none`,
    };
  if (body.trim() === "") return { file: null, why: `/llms.txt answers ${resource.status} with an empty body` };
  return { file: resource, body };
};
