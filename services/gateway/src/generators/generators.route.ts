import type { Response } from "express";
import { z } from "zod";
import type { AccountCaller } from "../access/authenticate";
import { KEY_REACH } from "../access/key-scope";
import { apiErrors, created, creatingHeaderParams } from "../docs/common";
import { type Route, route } from "../http/route";
import type { ToolContext } from "../scans";
import { FixInput, FixResult, GenerateInput, GenerateResult } from "./generator-schemas";
import type { GeneratorTools } from "./generator-tools";

const FIX_HINT =
  'Send {"url": "https://example.com", "issues": ["llms-txt", "structured-data"]} as JSON; issues is optional.';
const GENERATE_HINT =
  'Send {"url": "https://example.com", "content_type": "faq" | "blog" | "product", "topic": "..."} as JSON; topic is optional.';

/**
 * The key holder and request behind a call; a client that goes away stops the wait, not the
 * scan, and is answered all the same (what its retry with an Idempotency-Key receives).
 */
const contextOf = (caller: AccountCaller, res: Response): ToolContext => {
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  return { caller, requestId: res.locals.requestId, signal: gone.signal, urlForm: res.locals.form };
};

/**
 * POST /api/v1/fix and POST /api/v1/generate: the aeo_fix and aeo_generate tools over REST
 * (beyond docs/spec/public-scanning-api.md), with the same inputs and outputs, in the request's envelope. Each runs a
 * scan of the page (stored, owned by the key's workspace, counted in the monthly quota) and the
 * generators over its snapshot. `url` is read as POST /api/v1/scan reads it in each form.
 */
export const generatorRoutes = (generators: GeneratorTools): Route[] => [
  route(
    {
      method: "post",
      path: "/api/v1/fix",
      reach: KEY_REACH.oneUrl,
      authorization: "account",
      body: { schema: FixInput, hint: FIX_HINT },
      idempotent: true,
      docs: {
        operationId: "generateFixes",
        tags: ["Generators"],
        summary:
          "Files that fix a page: llms.txt, JSON-LD, robots.txt, ai-catalog.json and WebMCP form annotations (aeo_fix)",
        description: [
          'Runs a full scan of the page (counted as a scan against the quota) and generates, from what the page itself holds, an `llms.txt` in the llmstxt.org format, JSON-LD (Organization, WebSite, WebPage, and Article, FAQPage or BreadcrumbList where the page supports them), a `robots.txt` that keeps the site\'s rules, allows the AI search crawlers and names the sitemap, an `ai-catalog.json` (Agent Resource Discovery) naming the site and listing the files it served, with the `<link rel="ai-catalog">` to add, and WebMCP annotations (`toolname`, `tooldescription`, `toolparamdescription`) for forms that have none, drawn from their ids, legends, labels and submit text. Nothing is invented: a value the page does not hold is left out.',
          "",
          "A page scan does not fetch `ai-catalog.json`: its site checks (`ai-catalog`, `ai-catalog-schema`) are run as a site audit runs them, on the copy with the catalog served, and answered in `proof.siteChecks`. `webmcp-form-coverage` is judged only where the scan's Chromium exposes WebMCP; where it does not, the annotations are returned unjudged and `webmcpForms.recheck` says so.",
          "",
          "The files are proven before they are returned: the checks run on the page's snapshot as scanned and on a copy with the files in place (the JSON-LD in place of the page's own blocks, llms.txt and robots.txt served at the origin), at the scan's time. `proof` answers the scores, grade and verdicts before and after. A file's `addresses` lists only the checks that pass once it is in place; a check it is meant to fix that still does not pass is in its `ownerMustSupply`, with what the page does not state and its owner must supply (a logo, a publication date).",
          "",
          "`issues` restricts the files to those that make one of the given check ids pass or better; `unaddressed` says why each other asked id is not fixed. Each file carries the scan's verdicts on the checks it addresses. Same input and output as the MCP tool `aeo_fix`.",
        ].join("\n"),
        headers: z.object(creatingHeaderParams),
        responses: {
          "200": created("The generated files, the scan they come from, and their proof.", FixResult),
          ...apiErrors(400, 401, 403, 405, 409, 413, 422, 429, 500, 502, 503),
        },
      },
    },
    async ({ caller, body: input, res }) => {
      const context = contextOf(caller, res);
      const { data } = await generators.fix(input, context);
      return data;
    },
  ),

  route(
    {
      method: "post",
      path: "/api/v1/generate",
      reach: KEY_REACH.oneUrl,
      authorization: "account",
      body: { schema: GenerateInput, hint: GENERATE_HINT },
      idempotent: true,
      docs: {
        operationId: "generateContent",
        tags: ["Generators"],
        summary: "Content drafted from a page: FAQ, blog outline or product description (aeo_generate)",
        description: [
          "Runs a quick scan of the page and drafts content from it: FAQ pairs from question headings and the paragraphs that answer them (and FAQPage data), a blog outline from headings and key sentences, or a product description from Product data, headings and lists. `topic` keeps what matches it.",
          "",
          "Without a language model configured the draft is extractive and deterministic; with an OpenAI-compatible endpoint configured (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`) the model writes it, grounded on the page's text. `method` says which way was used. Same input and output as the MCP tool `aeo_generate`.",
        ].join("\n"),
        headers: z.object(creatingHeaderParams),
        responses: {
          "200": created("The drafted content and the scan it comes from.", GenerateResult),
          ...apiErrors(400, 401, 403, 405, 409, 413, 422, 429, 500, 502, 503),
        },
      },
    },
    async ({ caller, body: input, res }) => {
      const context = contextOf(caller, res);
      const { data } = await generators.generate(input, context);
      return data;
    },
  ),
];
