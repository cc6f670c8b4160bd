import { Liveness, Readiness } from "@scan/platform";
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { commonHeaderParams, security, serviceErrors, serviceHeaders } from "./common";

/** Outside /api/v1 and its rate limits: the probes, the metrics, and this reference. */

const headers = z.object(commonHeaderParams);

export const servicePaths: ZodOpenApiPathsObject = {
  "/healthz": {
    get: {
      operationId: "liveness",
      tags: ["Operations"],
      summary: "The process serves",
      description: "For liveness and startup probes; never behind a token, never rate-limited.",
      security: security.none,
      requestParams: { header: headers },
      responses: {
        "200": {
          description: "Alive.",
          headers: z.object(serviceHeaders),
          content: { "application/json": { schema: Liveness } },
        },
        ...serviceErrors(405),
      },
    },
  },
  "/readyz": {
    get: {
      operationId: "readiness",
      tags: ["Operations"],
      summary: "Postgres and Redis answer",
      description:
        "Every dependency is probed at once, each giving up after `READY_TIMEOUT_MS`. A failing one is marked with `timeout`, `unreachable` or `not ready`; the cause is logged, never sent. A gateway that is shutting down answers 503 at once.",
      security: security.none,
      requestParams: { header: headers },
      responses: {
        "200": {
          description: "Ready.",
          headers: z.object(serviceHeaders),
          content: { "application/json": { schema: Readiness } },
        },
        "503": {
          description: "Not ready: the failing dependencies are marked.",
          headers: z.object(serviceHeaders),
          content: { "application/json": { schema: Readiness } },
        },
        ...serviceErrors(405),
      },
    },
  },
  "/metrics": {
    get: {
      operationId: "metrics",
      tags: ["Operations"],
      summary: "Prometheus metrics",
      description:
        "Queue depth by state, HTTP request durations by route and status, rate-limit rejections by plan, and the process metrics. Open unless the deployment sets `METRICS_TOKEN`.",
      security: security.metrics,
      requestParams: { header: headers },
      responses: {
        "200": {
          description: "The Prometheus text exposition format.",
          headers: z.object(serviceHeaders),
          content: { "text/plain; version=0.0.4; charset=utf-8": { schema: z.string() } },
        },
        ...serviceErrors(401, 405),
      },
    },
  },
  "/openapi.json": {
    get: {
      operationId: "openApiDocument",
      tags: ["Reference"],
      summary: "This document",
      description: "OpenAPI 3.1, generated from the zod schemas the endpoints validate and answer with.",
      security: security.none,
      requestParams: { header: headers },
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
  "/docs": {
    get: {
      operationId: "reference",
      tags: ["Reference"],
      summary: "The interactive reference",
      description:
        "This document, browsable and with requests to try, served entirely from this server (no external assets).",
      security: security.none,
      requestParams: { header: headers },
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
  "/docs/assets/{file}": {
    get: {
      operationId: "referenceAsset",
      tags: ["Reference"],
      summary: "A file of the interactive reference",
      description:
        "Swagger UI's script and style sheet (from the `swagger-ui-dist` package) and the script that starts it: a fixed list of files, each linked from `/docs` with the package's version in its query, so they are cached for a day. Any other name is 404.",
      security: security.none,
      requestParams: {
        path: z.object({
          file: z.string().meta({ description: "`swagger-ui-bundle.js`, `swagger-ui.css` or `start.js`." }),
        }),
        header: headers,
      },
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
  "/favicon.ico": {
    get: {
      operationId: "favicon",
      tags: ["Reference"],
      summary: "The service's icon",
      description:
        "The icon browsers ask for, also linked from `/docs`: an ICO holding 16, 32 and 48 pixel PNGs. Cached for a day (`Cache-Control: public, max-age=86400`), then revalidated with its `ETag` (`If-None-Match` answers 304).",
      security: security.none,
      requestParams: {
        header: headers.extend({
          "If-None-Match": z
            .string()
            .optional()
            .meta({ description: "The `ETag` of a copy held: 304 when it is current." }),
        }),
      },
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
};
