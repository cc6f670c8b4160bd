import { AppError, LOGO_MAX_BYTES, ReportBrandingRequest, ReportBrandingView } from "@scan/contract";
import { z } from "zod";
import { KEY_REACH } from "../access/key-scope";
import { apiErrors, commonHeaders, record, serviceErrors, serviceHeaders } from "../docs/common";
import { type Route, route } from "../http/route";
import { type BrandingService, LOGO_PATH } from "./branding-service";

const TAGS: ["Reports"] = ["Reports"];
// base64 of the largest logo, and room for the rest of the body
const BRANDING_BODY_BYTES = Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4_096;

/** The workspace's report branding: read by its members, changed by any member but a viewer. */
export const brandingRoutes = (branding: BrandingService): Route[] => [
  route(
    {
      method: "get",
      path: "/api/v1/branding",
      reach: KEY_REACH.open,
      authorization: "account",
      docs: {
        operationId: "getReportBranding",
        tags: TAGS,
        summary: "The name and logo on the workspace's reports",
        description:
          "The agency name and logo that the workspace's client reports (`?format=pdf` of a scan or an audit's report) carry at the top. With none set, a report shows the workspace's name and no logo.",
        headers: commonHeaders,
        responses: {
          "200": record("The branding.", ReportBrandingView),
          ...apiErrors(401, 405, 429, 500, 503),
        },
      },
    },
    async ({ caller }) => branding.get(caller.workspaceId),
  ),
  route(
    {
      method: "put",
      path: "/api/v1/branding",
      reach: KEY_REACH.workspace,
      authorization: "account",
      maxContentLength: BRANDING_BODY_BYTES,
      body: {
        schema: ReportBrandingRequest,
        hint: 'Send {"agency_name": "Agency", "logo": {"type": "image/png", "data": "<base64>"}} as JSON; null clears a field, a field left out stays.',
        report: "names",
      },
      docs: {
        operationId: "setReportBranding",
        tags: TAGS,
        summary: "Set the name and logo on the workspace's reports",
        description: [
          "`agency_name` (1 to 100 characters, trimmed) replaces the workspace's name at the top of its reports; `logo` is a PNG or JPEG of at most 256 KB, its bytes in base64 (`data`, without a `data:` prefix) with its `type`. The bytes must be the image the type says (their signature is checked): anything else is 400, a larger image 413. SVG is not taken, since it can carry script.",
          "",
          "A field left out stays as it is; `null` clears it. Each new logo is served under a new unguessable URL (`logo_url`, on this service's origin), so a cached copy of an old one is never shown. A viewer is refused with 403.",
        ].join("\n"),
        headers: commonHeaders,
        responses: {
          "200": record("The branding as it now stands.", ReportBrandingView),
          ...apiErrors(400, 401, 403, 405, 413, 415, 429, 500, 503),
        },
      },
    },
    async ({ caller, body }) => branding.set(caller.workspaceId, body),
  ),
];

const LogoParam = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{32}$/, "token must be the logo's token from logo_url"),
});

/** A workspace's logo, outside /api/v1: an `<img>` and the PDF renderer load it without credentials. */
export const logoRoutes = (branding: BrandingService): Route[] => [
  route(
    {
      method: "get",
      path: `${LOGO_PATH}/:token`,
      authorization: "public",
      params: { schema: LogoParam, hint: "Use the logo_url of GET /api/v1/branding." },
      docs: {
        operationId: "getReportLogo",
        tags: TAGS,
        summary: "A report logo",
        description:
          "The image a workspace uploaded for its reports, under the unguessable URL its branding names. The URL changes with each upload, so the image is cached for a year. Served with `X-Content-Type-Options: nosniff` and a policy that runs nothing.",
        headers: commonHeaders,
        responses: {
          "200": {
            description: "The logo.",
            headers: z.object(serviceHeaders),
            content: {
              "image/png": { schema: z.string().meta({ format: "binary" }) },
              "image/jpeg": { schema: z.string().meta({ format: "binary" }) },
            },
          },
          ...serviceErrors(400, 404, 405),
        },
      },
    },
    async ({ params, res }) => {
      const logo = await branding.logo(params.token);
      if (!logo)
        throw new AppError(
          "not_found",
          "No logo is served under this address",
          "Read logo_url from GET /api/v1/branding: each upload has a new one.",
        );
      res.setHeader("Content-Type", logo.type);
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
      res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
      res.status(200).send(logo.bytes);
    },
  ),
];
