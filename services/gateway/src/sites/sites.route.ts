import {
  AppError,
  CreateSiteRequest,
  DeletedRecord,
  normaliseScanUrl,
  RenameSiteRequest,
  SiteCredentialsRequest,
  SiteCredentialsView,
  SiteDetail,
  SiteIdParam,
  SiteListQuery,
  SiteView,
} from "@scan/contract";
import { z } from "zod";
import { actorOf } from "../access/actor";
import { ownerOf } from "../access/authenticate";
import { KEY_REACH } from "../access/key-scope";
import type { ScheduleService } from "../audits";
import {
  apiErrors,
  commonHeaders,
  conditionalHeaders,
  created,
  creatingHeaders,
  LIST_RULES,
  NoStore,
  page,
  pageNotModified,
  record,
} from "../docs/common";
import { pageOf, reply } from "../http/answer";
import { type Route, route } from "../http/route";
import type { SiteCredentials } from "./site-credentials";
import type { SiteService } from "./site-service";

const QUERY_HINT =
  "page ≥ 1; limit from 1 to 100; q: text to find in the domain, name or url (at most 200 characters).";
const SITE_ID_HINT = "Use a site id from GET /api/v1/sites.";
const BODY_HINT = 'Send {"url": "https://example.com", "name": "Example"} as JSON; name is optional.';

/** GET /api/v1/sites (docs/spec/public-scanning-api.md §4.4), POST /api/v1/sites, and GET, PATCH and DELETE /api/v1/sites/:id, for the key holder's own sites. */
export const siteRoutes = ({
  sites,
  schedules,
  credentials,
  assertScannable,
}: {
  sites: SiteService;
  schedules: Pick<ScheduleService, "find">;
  credentials: SiteCredentials;
  /** the scan address policy: a site is scanned later, so a private origin is refused now (SCAN_ALLOWLIST applies) */
  assertScannable: (url: string) => Promise<void>;
}): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites",
      reach: KEY_REACH.list,
      authorization: "account",
      query: { schema: SiteListQuery, hint: QUERY_HINT, report: "names" },
      docs: {
        operationId: "listSites",
        tags: ["Sites"],
        summary: "The caller's sites",
        description: `\`q\` is a case-insensitive substring of the domain, name or url, matched literally (\`%\` and \`_\` match themselves). \`client_id\` keeps the sites assigned to that client (a key limited to a client lists its client's sites alone). ${LIST_RULES}`,
        headers: conditionalHeaders,
        responses: {
          "200": page("A page of sites.", SiteView),
          "304": pageNotModified(),
          ...apiErrors(400, 401, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, query }) => {
      const { sites: items, meta } = await sites.list(caller.workspaceId, query);
      return pageOf(items, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id",
      authorization: "account",
      params: { schema: SiteIdParam, hint: "Use a site id from GET /api/v1/sites." },
      docs: {
        operationId: "getSite",
        tags: ["Sites"],
        summary: "One of the caller's sites",
        description:
          "The site by id, with its latest scores and its audit `schedule` (as `GET /api/v1/sites/{id}/schedule` answers it; `null` when the site has none, where that endpoint answers 404). Another workspace's or an unknown site is 404. Its scans are `GET /api/v1/scans?site_id=`, its keywords `GET /api/v1/keywords?site_id=`, its citation tracks `GET /api/v1/citations?site_id=`.",
        headers: commonHeaders,
        responses: {
          "200": record("The site, with its schedule or null.", SiteDetail),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => {
      const site = await sites.get(caller.workspaceId, params.id);
      const detail = { ...site, schedule: await schedules.find(site.id) };
      return detail;
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites",
      reach: KEY_REACH.workspace,
      authorization: "account",
      body: { schema: CreateSiteRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
      docs: {
        operationId: "createSite",
        tags: ["Sites"],
        summary: "Record a site",
        description:
          "Records the site of the URL's origin (the URL follows the scan endpoint's rules, then is reduced to `scheme://host[:port]`). Safe to repeat: the caller's existing site for that origin is answered (and renamed when `name` is given). Keyed scans record their site by themselves.",
        headers: creatingHeaders,
        responses: {
          "200": created("The caller already had this origin: the existing site.", SiteView),
          "201": created("The new site.", SiteView),
          ...apiErrors(400, 401, 405, 409, 413, 422, 429, 500, 503),
        },
      },
    },
    async ({ caller, body: input, req, res }) => {
      // the same URL rules as a scan's, so a scan of any page of the site finds it
      const url = normaliseScanUrl(input.url, res.locals.form);
      if (!url.ok) throw new AppError("invalid_request", url.reason, BODY_HINT);
      await assertScannable(url.url);
      const { site, created } = await sites.create(
        ownerOf(caller),
        { url: url.url, name: input.name },
        actorOf(caller, req, res),
      );
      return reply(site, { status: created ? 201 : 200 });
    },
  ),

  route(
    {
      method: "patch",
      path: "/api/v1/sites/:id",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      body: {
        schema: RenameSiteRequest,
        hint: 'Send {"name": "Example"}, {"client_id": "<client id>" | null} or both as JSON.',
        report: "names",
      },
      docs: {
        operationId: "renameSite",
        tags: ["Sites"],
        summary: "Rename one of the caller's sites, or assign it to a client",
        description:
          "Gives the site a new `name` (1 to 100 characters, trimmed), assigns it to one of the workspace's clients (`client_id`; `null` takes it out of its client), or both. A site belongs to at most one client. Its origin, scores and records stay: another origin is another site. Another workspace's or an unknown site, or client, is 404. A key limited to a client may rename its client's sites and not assign them (403).",
        headers: commonHeaders,
        responses: {
          "200": record("The site, renamed.", SiteView),
          ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body: input, req, res }) => {
      const change = { name: input.name, clientId: input.client_id };
      return sites.update(caller.workspaceId, params.id, change, actorOf(caller, req, res));
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      docs: {
        operationId: "deleteSite",
        tags: ["Sites"],
        summary: "Delete one of the caller's sites",
        description:
          "Deletes the site with its keywords, citation tracks, audits, audit schedule, regression alerts, stored credentials, and its visibility profile, prompts and competitors. Its scans stay (they are of URLs); a later scan of the origin made with a key records the site again, without what was deleted. 409 `conflict` while an audit of the site is under way; another workspace's or an unknown site is 404.",
        headers: commonHeaders,
        responses: {
          "200": record("Deleted.", DeletedRecord),
          ...apiErrors(400, 401, 404, 405, 409, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, req, res }) => {
      return sites.remove(caller.workspaceId, params.id, actorOf(caller, req, res));
    },
  ),

  ...credentialRoutes(credentials),
];

const CREDENTIALS_HINT =
  'Send {"headers": {"X-Staging-Token": "..."}, "cookies": {"session": "..."}, "basic": {"username": "...", "password": "..."}} as JSON; any of the three, at least one.';

/**
 * GET/PUT/DELETE /api/v1/sites/:id/credentials: a site behind a login (docs/sites-and-lists.md).
 * PUT replaces them whole; GET and PUT answer which names are set, never a value.
 */
const credentialRoutes = (credentials: SiteCredentials): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id/credentials",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      docs: {
        operationId: "getSiteCredentials",
        tags: ["Sites"],
        summary: "Which credentials a site behind a login sends",
        description:
          "The names of the headers and cookies, and whether HTTP Basic credentials are set: never a value. 404 when the site is not the caller's, or has no credentials; 503 when the service has no `SITE_SECRETS_KEY`.",
        headers: commonHeaders,
        responses: {
          "200": record("What is set, by name.", SiteCredentialsView, { headers: { "Cache-Control": NoStore } }),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => {
      return reply(await credentials.show(caller.workspaceId, params.id), { headers: { "Cache-Control": "no-store" } });
    },
  ),
  route(
    {
      method: "put",
      path: "/api/v1/sites/:id/credentials",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      body: { schema: SiteCredentialsRequest, hint: CREDENTIALS_HINT, report: "names" },
      docs: {
        operationId: "setSiteCredentials",
        tags: ["Sites"],
        summary: "Set the credentials of a site behind a login",
        description:
          "Replaces the site's credentials whole: request headers, cookies and HTTP Basic credentials that the caller's scans of this origin send to it, and to no other origin (not a redirect's target, not another origin's subresource). Sealed with AES-256-GCM before they are stored, never logged, never returned: the answer names what is set. Headers that belong to the connection, `Host`, `User-Agent`, `Cookie` and `Authorization` are refused (cookies and Basic credentials have fields of their own). Anonymous scans and other workspaces' scans of the same origin send none.",
        headers: commonHeaders,
        responses: {
          "200": record("What is now set, by name.", SiteCredentialsView, { headers: { "Cache-Control": NoStore } }),
          ...apiErrors(400, 401, 404, 405, 413, 429, 500, 503),
        },
      },
    },
    async ({ caller, params, body: input }) => {
      const view = await credentials.set(caller.workspaceId, params.id, input);
      return reply(view, { headers: { "Cache-Control": "no-store" } });
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id/credentials",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      docs: {
        operationId: "deleteSiteCredentials",
        tags: ["Sites"],
        summary: "Remove the credentials of a site",
        description: "Later scans of the site send none. 404 when the site is not the caller's or has none.",
        headers: commonHeaders,
        responses: {
          "200": record("Removed.", z.object({ id: z.uuid(), deleted: z.literal(true) })),
          ...apiErrors(400, 401, 404, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller, params }) => {
      return credentials.remove(caller.workspaceId, params.id);
    },
  ),
];
