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
};
