import { DeletedEngineKey, EngineKeyParam, EngineKeyView, SetEngineKeyRequest, WorkspaceIdParam } from "@scan/contract";
import { z } from "zod";
import { apiErrors, commonHeaders, record } from "../docs/common";
import { reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { EngineKeyService } from "./engine-key-service";

const TAGS: ["Visibility"] = ["Visibility"];
const ID_HINT = "Use a workspace id from GET /api/v1/workspaces.";
const KEY_HINT = "Use a workspace id from GET /api/v1/workspaces and an engine: chatgpt, claude, perplexity or gemini.";
const MANAGED =
  "For the workspace's owners and admins, with a signed-in user's JWT (403 `forbidden` for its members and viewers; a workspace the caller is not a member of is 404, as an unknown one is). The key itself is never answered, logged or returned: only its last four characters.";

/**
 * /api/v1/workspaces/:id/engine-keys…: the workspace's own keys for the AI engines' APIs. A JWT's,
 * as the other workspace endpoints: an API key belongs to one workspace and manages none.
 */
export const engineKeyRoutes = (keys: EngineKeyService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/workspaces/:id/engine-keys",
      authorization: "user-jwt",
      params: { schema: WorkspaceIdParam, hint: ID_HINT },
      docs: {
        operationId: "listEngineKeys",
        tags: TAGS,
        summary: "A workspace's engine keys",
        description: `One per engine the workspace has its own key for, by engine name. ${MANAGED}`,
        headers: commonHeaders,
        responses: {
          "200": record("The keys, never their secrets.", z.array(EngineKeyView)),
          ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
        },
      },
    },
    ({ caller, params }) => keys.list(caller.userId, params.id),
  ),
  route(
    {
      method: "put",
      path: "/api/v1/workspaces/:id/engine-keys/:engine",
      authorization: "user-jwt",
      params: { schema: EngineKeyParam, hint: KEY_HINT },
      body: {
        schema: SetEngineKeyRequest,
        hint: 'Send {"api_key": "<the engine API\'s key>", "model": "<optional model name>"} as JSON.',
        report: "names",
      },
      docs: {
        operationId: "setEngineKey",
        tags: TAGS,
        summary: "Set a workspace's key for an engine",
        description: `Sets the key the workspace's visibility runs ask the engine with (OpenAI's for chatgpt, Anthropic's for claude, Perplexity's, Google's Gemini API key for gemini), replacing one set before, with the model to ask (\`null\` or left out: the service's default). Sealed with AES-256-GCM under the deployment's \`SITE_SECRETS_KEY\` before it reaches the database; 503 when that key is not configured. 201 when the workspace had no key for the engine, 200 when one was replaced. ${MANAGED}`,
        headers: commonHeaders,
        responses: {
          "200": record("The key, replaced.", EngineKeyView),
          "201": record("The key, set.", EngineKeyView),
          ...apiErrors(400, 401, 403, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body }) => {
      const { key, created: made } = await keys.set(caller.userId, params.id, params.engine, body);
      return reply(key, { status: made ? 201 : 200 });
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/workspaces/:id/engine-keys/:engine",
      authorization: "user-jwt",
      params: { schema: EngineKeyParam, hint: KEY_HINT },
      docs: {
        operationId: "deleteEngineKey",
        tags: TAGS,
        summary: "Remove a workspace's key for an engine",
        description: `The sealed key is deleted; runs ask the engine with the service's key, where the operator has set one. A workspace with no key for the engine is 404. ${MANAGED}`,
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedEngineKey),
          ...apiErrors(400, 401, 403, 404, 405, 429, 500, 503),
        },
      },
    },
    ({ caller, params }) => keys.remove(caller.userId, params.id, params.engine),
  ),
];
