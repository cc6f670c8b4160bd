import {
  AppError,
  CreateSiteRequest,
  normaliseScanUrl,
  RenameSiteRequest,
  SiteCredentialsRequest,
  SiteIdParam,
  SiteListQuery,
} from "@scan/contract";
import type { ScheduleService } from "../domain/schedule-service";
import type { SiteCredentials } from "../domain/site-credentials";
import type { SiteService } from "../domain/site-service";
import { page, reply } from "../http/answer";
import { type Route, route } from "../http/route";

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
      authorization: "account",
      query: { schema: SiteListQuery, hint: QUERY_HINT, report: "names" },
    },
    async ({ caller, query }) => {
      const { sites: items, meta } = await sites.list(caller.userId, query);
      return page(items, meta);
    },
  ),
  route(
    {
      method: "get",
      path: "/api/v1/sites/:id",
      authorization: "account",
      params: { schema: SiteIdParam, hint: "Use a site id from GET /api/v1/sites." },
    },
    async ({ caller, params }) => {
      const site = await sites.get(caller.userId, params.id);
      const detail = { ...site, schedule: await schedules.find(site.id) };
      return detail;
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites",
      authorization: "account",
      body: { schema: CreateSiteRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
    },
    async ({ caller, body: input, res }) => {
      // the same URL rules as a scan's, so a scan of any page of the site finds it
      const url = normaliseScanUrl(input.url, res.locals.form);
      if (!url.ok) throw new AppError("invalid_request", url.reason, BODY_HINT);
      await assertScannable(url.url);
      const { site, created } = await sites.create(caller.userId, { url: url.url, name: input.name });
      return reply(site, { status: created ? 201 : 200 });
    },
  ),

  route(
    {
      method: "patch",
      path: "/api/v1/sites/:id",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      body: { schema: RenameSiteRequest, hint: 'Send {"name": "Example"} as JSON.', report: "names" },
    },
    async ({ caller, params, body: input }) => {
      const site = await sites.rename(caller.userId, params.id, input.name);
      return site;
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
    },
    async ({ caller, params }) => {
      return sites.remove(caller.userId, params.id);
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
    },
    async ({ caller, params }) => {
      return reply(await credentials.show(caller.userId, params.id), { headers: { "Cache-Control": "no-store" } });
    },
  ),
  route(
    {
      method: "put",
      path: "/api/v1/sites/:id/credentials",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
      body: { schema: SiteCredentialsRequest, hint: CREDENTIALS_HINT, report: "names" },
    },
    async ({ caller, params, body: input }) => {
      const view = await credentials.set(caller.userId, params.id, input);
      return reply(view, { headers: { "Cache-Control": "no-store" } });
    },
  ),
  route(
    {
      method: "delete",
      path: "/api/v1/sites/:id/credentials",
      authorization: "account",
      params: { schema: SiteIdParam, hint: SITE_ID_HINT },
    },
    async ({ caller, params }) => {
      return credentials.remove(caller.userId, params.id);
    },
  ),
];
