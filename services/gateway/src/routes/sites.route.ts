import { AppError, CreateSiteRequest, normaliseScanUrl, SiteListQuery, successBody } from "@scan/contract";
import type { SiteService } from "../domain/site-service";
import { sendPage } from "../http/pagination";
import { type Route, route } from "../http/route";

const QUERY_HINT =
  "page ≥ 1; limit from 1 to 100; q: text to find in the domain, name or url (at most 200 characters).";
const BODY_HINT = 'Send {"url": "https://example.com", "name": "Example"} as JSON; name is optional.';

/** GET /api/v1/sites (docs/spec/public-scanning-api.md §4.4) and POST /api/v1/sites, for the key holder's own sites. */
export const siteRoutes = ({
  sites,
  assertScannable,
}: {
  sites: SiteService;
  /** the scan address policy: a site is scanned later, so a private origin is refused now (SCAN_ALLOWLIST applies) */
  assertScannable: (url: string) => Promise<void>;
}): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/sites",
      authorization: "api-key",
      query: { schema: SiteListQuery, hint: QUERY_HINT, report: "names" },
    },
    async ({ caller, query, req, res }) => {
      const { sites: items, meta } = await sites.list(caller.userId, query);
      await sendPage(req, res, items, meta);
    },
  ),
  route(
    {
      method: "post",
      path: "/api/v1/sites",
      authorization: "api-key",
      body: { schema: CreateSiteRequest, hint: BODY_HINT, report: "names" },
      idempotent: true,
    },
    async ({ caller, body: input, res }) => {
      // the same URL rules as a scan's, so a scan of any page of the site finds it
      const url = normaliseScanUrl(input.url, res.locals.form);
      if (!url.ok) throw new AppError("invalid_request", url.reason, BODY_HINT);
      await assertScannable(url.url);
      const { site, created } = await sites.create(caller.userId, { url: url.url, name: input.name });
      res.status(created ? 201 : 200).json(successBody(res.locals.form, site, { requestId: res.locals.requestId }));
    },
  ),
];
