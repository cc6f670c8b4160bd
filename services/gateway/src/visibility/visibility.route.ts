import {
  CreatePromptRequest,
  DeletedRecord,
  PromptIdParam,
  PromptImportResult,
  PromptListQuery,
  PromptView,
  SiteIdParam,
  UpdatePromptRequest,
  VisibilityProfileRequest,
  VisibilityProfileView,
} from "@scan/contract";
import { z } from "zod";
import { ownerOf } from "../access/authenticate";
import {
  apiErrors,
  commonHeaders,
  conditionalHeaders,
  created,
  creatingHeaders,
  LIST_RULES,
  notModified,
  page,
  pageNotModified,
  record,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { ProfileService } from "./profile-service";
import { IMPORT_HINT, type PromptService } from "./prompt-service";

const TAGS: ["Visibility"] = ["Visibility"];
const SITE_HINT = "Use a site id from GET /api/v1/sites.";
const PROMPT_HINT = "Use a site id from GET /api/v1/sites and a prompt id from GET /api/v1/sites/{id}/prompts.";
const PROFILE_HINT =
  'Send {"brand_names": ["Acme", "Acme Widgets"], "brand_domains": ["acme.example"], "samples_per_prompt": 3, "engines": ["chatgpt", "claude", "perplexity", "gemini"]} as JSON; only brand_names is required.';
const PROMPT_BODY_HINT =
  'Send {"text": "What is the best widget for boat panels?", "topic": "marine", "tags": ["buying"], "locale": "en-GB"} as JSON; only text is required.';
const LIST_HINT =
  "page ≥ 1; limit from 1 to 100; q: text to find (at most 200 characters); topic; tag; locale: a BCP 47 tag.";
const NOT_YOURS = "Another workspace's or an unknown site is 404.";

/** The CSV text of an import, as the body parser reads it. */
const PromptCsv = z.string().meta({
  description:
    "CSV (RFC 4180; comma, or semicolon or tab when the header row has no comma), UTF-8, a byte-order mark allowed. The header row names the columns, in any order and case: `text` (required, at most 500 characters), `topic`, `tags` (separated by `|`), `locale` (BCP 47). A blank row is skipped.",
  example: 'text,topic,tags,locale\n"Best widget for boat panels?",marine,buying|boats,en-GB\n',
});

/**
 * /api/v1/sites/:id/visibility and /api/v1/sites/:id/prompts…: what a site's AI visibility is
 * measured with. Reads for any account of the workspace; writes for keys and for members (a
 * viewer's are 403, as everywhere).
 */
export const visibilityRoutes = ({
  profiles,
  prompts,
}: {
  profiles: ProfileService;
  prompts: PromptService;
}): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/visibility",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      docs: {
        operationId: "getVisibilityProfile",
        tags: TAGS,
        summary: "A site's visibility profile",
        description: `Who the brand is in an AI answer (its names and domains), how many samples of each prompt a run takes, and which engines it asks; with the site's prompt and competitor counts and the engines the workspace has its own key for. Before a profile is set (\`configured: false\`) the answer is the defaults a run would use: the site's name and domain, 3 samples, every engine. ${NOT_YOURS}`,
        headers: conditionalHeaders,
        responses: {
          "200": record("The profile.", VisibilityProfileView),
          "304": notModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => reply(await profiles.get(caller.workspaceId, params.id), { revalidatable: true }),
  ),
  route(
    {
      method: "put",
      path: "/api/v1/sites/:id/visibility",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: VisibilityProfileRequest, hint: PROFILE_HINT, report: "names" },
      docs: {
        operationId: "setVisibilityProfile",
        tags: TAGS,
        summary: "Set a site's visibility profile",
        description: `Sets the profile whole (a PUT: the same body twice is the same profile). \`brand_names\`: 1 to 20, the first the main name, no repeats ignoring case. \`brand_domains\`: up to 20 host names (or http(s) URLs whose host is taken), lower-cased and IDNA-encoded; an IP address, a private or reserved host (the address policy) or a path is 400. \`samples_per_prompt\`: 1 to 10, default 3. \`engines\`: some of chatgpt, claude, perplexity, gemini, default all four. ${NOT_YOURS}`,
        headers: commonHeaders,
        responses: {
          "200": record("The profile, as stored.", VisibilityProfileView),
          ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    ({ caller, params, body }) => profiles.set(ownerOf(caller), params.id, body),
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/prompts",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      query: { schema: PromptListQuery, hint: LIST_HINT, report: "names" },
      docs: {
        operationId: "listPrompts",
        tags: TAGS,
        summary: "A site's tracked prompts",
        description: `Newest first. \`q\`: a case-insensitive substring of the text, matched literally; \`topic\`: the topic, ignoring case; \`tag\`: prompts carrying the tag; \`locale\`: the language tag, in any case. ${NOT_YOURS} ${LIST_RULES}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of prompts.", PromptView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, query }) => {
      const { prompts: items, meta } = await prompts.list(caller.workspaceId, params.id, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/prompts",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: CreatePromptRequest, hint: PROMPT_BODY_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "createPrompt",
        tags: TAGS,
        summary: "Track a prompt for a site",
        description: `\`text\`: at most 500 characters, trimmed and inner whitespace collapsed; one prompt per wording and site, ignoring case, spacing and closing punctuation (\`Best CRM?\` and \`best crm\` are one: 409 \`conflict\` naming the prompt there). \`topic\`: at most 100 characters; \`tags\`: up to 20, lower-cased, at most 50 characters each; \`locale\`: a BCP 47 tag, stored in its canonical case (\`en-gb\` is \`en-GB\`). ${NOT_YOURS}`,
        headers: creatingHeaders,
        responses: {
          "201": created("The prompt.", PromptView),
          ...apiErrors(400, 401, 404, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body }) => reply(await prompts.create(ownerOf(caller), params.id, body), { status: 201 }),
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites/:id/prompts/import",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_HINT },
      body: { schema: PromptCsv, hint: IMPORT_HINT, mediaType: "text/csv" },
      idempotent: true,
      docs: {
        operationId: "importPrompts",
        tags: TAGS,
        summary: "Import a site's prompts from CSV",
        description: `The body is the CSV file itself (\`Content-Type: text/csv\`), at most 1,000 prompts and the server's body limit. **All or nothing**: a row at fault (a blank or over-long text, a bad locale, more cells than the header) refuses the whole file with 400, its message naming up to 10 rows by number (the header is row 1, as a spreadsheet numbers it), and nothing is stored. A row whose prompt the site tracks already, or an earlier row of the file holds, is skipped and listed in \`skipped\` with the prompt it is the same as, so importing a file again adds only what is new. 201 when a prompt was added, 200 when every row was skipped. ${NOT_YOURS}`,
        headers: creatingHeaders,
        responses: {
          "200": created("Every row was tracked already.", PromptImportResult),
          "201": created("The prompts added, and the rows skipped.", PromptImportResult),
          ...apiErrors(400, 401, 404, 405, 409, 413, 415, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body }) => {
      const { result, created: added } = await prompts.importCsv(ownerOf(caller), params.id, body);
      return reply(result, { status: added ? 201 : 200 });
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/prompts/:promptId",
      authorization: "account",
      params: { schema: PromptIdParam, hint: PROMPT_HINT },
      docs: {
        operationId: "getPrompt",
        tags: TAGS,
        summary: "One of a site's prompts",
        description: `Another site's, another workspace's or an unknown prompt is 404.`,
        headers: conditionalHeaders,
        responses: {
          "200": record("The prompt.", PromptView),
          "304": notModified(),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) =>
      reply(await prompts.get(caller.workspaceId, params.id, params.promptId), { revalidatable: true }),
  ),
  route(
    {
      method: "patch",
      path: "/api/v1/sites/:id/prompts/:promptId",
      authorization: "account",
      params: { schema: PromptIdParam, hint: PROMPT_HINT },
      body: { schema: UpdatePromptRequest, hint: PROMPT_BODY_HINT, report: "names" },
      docs: {
        operationId: "updatePrompt",
        tags: TAGS,
        summary: "Change a site's prompt",
        description:
          "The fields sent change, as on creation; `null` clears `topic` or `locale`. A wording another of the site's prompts has is 409 `conflict`. Another site's, another workspace's or an unknown prompt is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("The prompt, changed.", PromptView),
          ...apiErrors(400, 401, 404, 405, 409, 413, 429, 500, 503),
        },
      },
    },
    ({ caller, params, body }) => prompts.update(caller.workspaceId, params.id, params.promptId, body),
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id/prompts/:promptId",
      authorization: "account",
      params: { schema: PromptIdParam, hint: PROMPT_HINT },
      docs: {
        operationId: "deletePrompt",
        tags: TAGS,
        summary: "Stop tracking a site's prompt",
        description: "Another site's, another workspace's or an unknown prompt is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedRecord),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    ({ caller, params }) => prompts.remove(caller.workspaceId, params.id, params.promptId),
  ),
];
