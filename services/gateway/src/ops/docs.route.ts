import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AppError } from "@scan/contract";
import { z } from "zod";
import { commonHeaders, serviceErrors, serviceHeaders } from "../docs/common";
import { noneMatchHits, strongTagOf } from "../http/conditional";
import { type Route, route } from "../http/route";

/** Swagger UI's prebuilt files, from the npm package: the page loads nothing from elsewhere. */
const UI_DIR = dirname(require.resolve("swagger-ui-dist/package.json"));
const UI_VERSION = (JSON.parse(readFileSync(join(UI_DIR, "package.json"), "utf8")) as { version: string }).version;

const ASSETS_PATH = "/docs/assets";

/** Starts Swagger UI on this server's document; a file of its own, as the page's policy runs no inline script. */
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  displayRequestDuration: true,
  filter: true,
  // no badge that sends the document to validator.swagger.io
  validatorUrl: "none",
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>aeo-scan API reference</title>
<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css?v=${UI_VERSION}">
</head>
<body>
<div id="reference"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js?v=${UI_VERSION}"></script>
<script src="${ASSETS_PATH}/start.js?v=${UI_VERSION}"></script>
</body>
</html>
`;

/**
 * Everything from this origin: scripts only from files (no inline script, no eval), styles
 * inline too (the UI sets style attributes), requests ("Try it out") only to this API.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** A file of the package (named relative to it), or a body of our own. */
type Asset = { file: string } | { body: string; type: string };

const ASSETS = new Map<string, Asset>([
  ["/swagger-ui.css", { file: "swagger-ui.css" }],
  ["/swagger-ui-bundle.js", { file: "swagger-ui-bundle.js" }],
  ["/start.js", { body: START_SCRIPT, type: "text/javascript" }],
]);

/** The service's icon (services/gateway/assets, drawn as favicon.svg; scripts/favicon.ts renders the ICO). */
const FAVICON = readFileSync(
  // from the sources (src/ops/) or from the bundle (dist/), which sits one level higher
  [join(__dirname, "..", "..", "assets"), join(__dirname, "..", "assets")]
    .map((dir) => join(dir, "favicon.ico"))
    .find((file) => existsSync(file)) ?? join(__dirname, "..", "..", "assets", "favicon.ico"),
);
const FAVICON_TAG = strongTagOf(FAVICON);

/** The API reference as served: the document built from the routes the app mounts, these among them. */
export type Reference = { document: string };

/**
 * GET /openapi.json (the API reference, OpenAPI 3.1), GET /docs (Swagger UI over it) with its
 * files, and the service's icon, outside /api/v1: no key, no rate limit. The document is
 * built once, when the app has its routes (app.ts), and read from `reference`.
 */
export const docsRoutes = (reference: Reference): Route[] => {
  return [
    route(
      {
        method: "get",
        path: "/openapi.json",
        authorization: "public",
        docs: {
          operationId: "openApiDocument",
          tags: ["Reference"],
          summary: "This document",
          description: "OpenAPI 3.1, generated from the zod schemas the endpoints validate and answer with.",
          headers: commonHeaders,
          responses: {
            "200": {
              description: "The OpenAPI document.",
              headers: z.object(serviceHeaders),
              content: {
                "application/json": {
                  schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
                },
              },
            },
            ...serviceErrors(405),
          },
        },
      },
      ({ res }) => {
        res.setHeader("Cache-Control", "no-cache");
        // a public description: tools in other origins (editors, client generators) may read it
        res.setHeader("Access-Control-Allow-Origin", "*");
        res.type("application/json").send(reference.document);
      },
    ),

    route(
      {
        method: "get",
        path: "/docs",
        authorization: "public",
        docs: {
          operationId: "reference",
          tags: ["Reference"],
          summary: "The interactive reference",
          description:
            "This document, browsable and with requests to try, served entirely from this server (no external assets).",
          headers: commonHeaders,
          responses: {
            "200": {
              description: "An HTML page.",
              headers: z.object(serviceHeaders),
              content: { "text/html; charset=utf-8": { schema: z.string() } },
            },
            ...serviceErrors(405),
          },
        },
      },
      ({ res }) => {
        res.setHeader("Content-Security-Policy", PAGE_POLICY);
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Cache-Control", "no-cache");
        res.type("html").send(PAGE);
      },
    ),

    // the page's files, a fixed list (never a directory)
    route(
      {
        method: "get",
        path: `${ASSETS_PATH}/:file`,
        authorization: "public",
        docs: {
          operationId: "referenceAsset",
          tags: ["Reference"],
          summary: "A file of the interactive reference",
          description:
            "Swagger UI's script and style sheet (from the `swagger-ui-dist` package) and the script that starts it: a fixed list of files, each linked from `/docs` with the package's version in its query, so they are cached for a day. Any other name is 404.",
          headers: commonHeaders,
          path: z.object({
            file: z.string().meta({ description: "`swagger-ui-bundle.js`, `swagger-ui.css` or `start.js`." }),
          }),
          responses: {
            "200": {
              description: "The file.",
              headers: z.object({ ...serviceHeaders, "Cache-Control": z.literal("public, max-age=86400") }),
              content: {
                "text/javascript; charset=utf-8": { schema: z.string() },
                "text/css; charset=utf-8": { schema: z.string() },
              },
            },
            ...serviceErrors(404, 405),
          },
        },
      },
      ({ req, res }) => {
        const name = String(req.params.file);
        const asset = ASSETS.get(`/${name}`);
        if (!asset) {
          throw new AppError(
            "not_found",
            `No file ${name.slice(0, 100)} among the reference page's files`,
            "Load the page at /docs.",
          );
        }
        res.setHeader("X-Content-Type-Options", "nosniff");
        // the page names each file with the package's version, so a new version is a new URL
        res.setHeader("Cache-Control", "public, max-age=86400");
        if ("body" in asset) {
          res.type(asset.type).send(asset.body);
          return;
        }
        // relative to the package's directory: pnpm keeps packages under node_modules/.pnpm, a
        // dot-directory that sendFile refuses to serve from when it is part of the file's name
        return new Promise<void>((resolve, reject) =>
          res.sendFile(asset.file, { root: UI_DIR, cacheControl: false }, (error) =>
            error && !res.headersSent ? reject(error) : resolve(),
          ),
        );
      },
    ),

    // browsers ask for it by this name; kept a day, then revalidated by its entity tag
    route(
      {
        method: "get",
        path: "/favicon.ico",
        authorization: "public",
        docs: {
          operationId: "favicon",
          tags: ["Reference"],
          summary: "The service's icon",
          description:
            "The icon browsers ask for, also linked from `/docs`: an ICO holding 16, 32 and 48 pixel PNGs. Cached for a day (`Cache-Control: public, max-age=86400`), then revalidated with its `ETag` (`If-None-Match` answers 304).",
          headers: commonHeaders.extend({
            "If-None-Match": z
              .string()
              .optional()
              .meta({ description: "The `ETag` of a copy held: 304 when it is current." }),
          }),
          responses: {
            "200": {
              description: "The icon.",
              headers: z.object({
                ...serviceHeaders,
                ETag: z.string(),
                "Cache-Control": z.literal("public, max-age=86400"),
              }),
              content: { "image/x-icon": { schema: z.string().meta({ description: "The ICO file's bytes." }) } },
            },
            "304": {
              description: "The copy held is current: no body.",
              headers: z.object({ ...serviceHeaders, ETag: z.string() }),
            },
            ...serviceErrors(405),
          },
        },
      },
      ({ req, res }) => {
        res.setHeader("Cache-Control", "public, max-age=86400");
        res.setHeader("ETag", FAVICON_TAG);
        res.setHeader("X-Content-Type-Options", "nosniff");
        if (noneMatchHits(req.get("if-none-match"), FAVICON_TAG)) {
          res.status(304).end();
          return;
        }
        res.type("image/x-icon").send(FAVICON);
      },
    ),
  ];
};
