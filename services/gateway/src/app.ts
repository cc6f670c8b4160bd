import type { ResponseForm } from "@scan/contract";
import type { Readiness } from "@scan/platform";
import type { Queue } from "bullmq";
import express, { type Express } from "express";
import type { Logger } from "pino";
import type { AuditService } from "./domain/audit-service";
import type { Authenticator } from "./domain/authenticate";
import type { CitationService } from "./domain/citation-service";
import type { HistoryService } from "./domain/history-service";
import type { KeyService } from "./domain/key-service";
import type { KeywordService } from "./domain/keyword-service";
import type { McpSessions } from "./domain/mcp-sessions";
import type { RateLimiter } from "./domain/rate-limiter";
import type { ScanService } from "./domain/scan-service";
import type { ScheduleService } from "./domain/schedule-service";
import type { SiteService } from "./domain/site-service";
import { type Tools, toolCatalogue } from "./domain/tool-catalogue";
import { createToolServerFactory } from "./domain/tool-server";
import { apiAccess } from "./http/api-access";
import { errorHandler, notFound } from "./http/errors";
import { jsonBodies } from "./http/json-body";
import { createMcpAccess } from "./http/mcp-access";
import { rateLimitShown } from "./http/rate-limit-shown";
import { requestContext } from "./http/request-context";
import { observeRequests } from "./http/request-log";
import { wellFormedRequest } from "./http/request-shape";
import { API_PREFIX, routerOf } from "./http/route";
import type { GatewayMetrics } from "./observability/metrics";
import { adminRoutes } from "./routes/admin.route";
import { auditRoutes } from "./routes/audits.route";
import { citationRoutes } from "./routes/citations.route";
import { docsRoutes } from "./routes/docs.route";
import { evaluateRoutes } from "./routes/evaluate.route";
import { generatorRoutes } from "./routes/generators.route";
import { keyRoutes } from "./routes/keys.route";
import { keywordRoutes } from "./routes/keywords.route";
import { mcpRoutes } from "./routes/mcp.route";
import { opsRoutes } from "./routes/ops.route";
import { scanRoutes } from "./routes/scan.route";
import { scanListRoutes } from "./routes/scans.route";
import { siteRoutes } from "./routes/sites.route";

export type AppDeps = {
  scans: ScanService;
  keys: KeyService;
  sites: SiteService;
  audits: AuditService;
  schedules: ScheduleService;
  history: HistoryService;
  keywords: KeywordService;
  citations: CitationService;
  auth: Authenticator;
  limiter: RateLimiter;
  /** the page tools behind the MCP server and the fix and generate endpoints */
  tools: Tools;
  /** the MCP server's legacy SSE sessions in this process */
  mcpSessions: McpSessions;
  log: Logger;
  defaultForm: ResponseForm;
  bodyLimitBytes: number;
  /** longest request URL (path and query) in bytes; longer is 414 */
  maxUrlBytes: number;
  /** proxy hops whose X-Forwarded-For is believed for the client address; 0 trusts none */
  trustProxy: number;
  metrics: GatewayMetrics;
  readiness: () => Promise<Readiness>;
  /** /metrics wants this Bearer token when set */
  metricsToken?: string;
  /** the queue dashboard exists only when this is set */
  adminToken?: string;
  /** the queues the dashboard shows */
  queues?: readonly Queue[];
};

export const createApp = ({
  scans,
  keys,
  sites,
  audits,
  schedules,
  history,
  keywords,
  citations,
  auth,
  limiter,
  tools,
  mcpSessions,
  log,
  defaultForm,
  bodyLimitBytes,
  maxUrlBytes,
  trustProxy,
  metrics,
  readiness,
  metricsToken,
  adminToken,
  queues = [],
}: AppDeps): Express => {
  const onRejected = (plan: string) => metrics.rateLimitRejections.inc({ plan });
  // the REST API, declared route by route: the access middleware and the body parser read the declarations
  const api = [
    ...scanRoutes(scans),
    ...scanListRoutes({ scans, limiter, onRejected }),
    ...keyRoutes(keys),
    ...evaluateRoutes(),
    ...siteRoutes({ sites, assertScannable: scans.assertScannable }),
    ...auditRoutes({ audits, schedules, history }),
    ...keywordRoutes(keywords),
    ...citationRoutes(citations),
    ...generatorRoutes(tools.generators),
  ];
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // a number trusts exactly that many hops from the socket; 0 (false) makes req.ip the socket's address
  app.set("trust proxy", trustProxy === 0 ? false : trustProxy);
  app.use(requestContext(defaultForm));
  app.use(observeRequests({ log, metrics }));
  // authentication and rate limits before bodies are read: a refused caller's body is never parsed
  app.use(API_PREFIX, apiAccess({ routes: api, auth, limiter, log, onRejected }));
  // every other response shows the caller's counter too, read without spending
  app.use(rateLimitShown({ auth, limiter, log }));
  app.use(wellFormedRequest({ maxUrlBytes }));
  // probes and metrics come before body parsing and any API authentication
  app.use(opsRoutes({ metrics, readiness, metricsToken }));
  // the API reference: public, outside /api/v1 and its rate limits
  app.use(docsRoutes());
  app.use(adminRoutes({ token: adminToken, queues }));
  // the MCP tool server (docs/spec/public-scanning-api.md §4.8): its own authentication, counting and JSON-RPC errors
  app.use(
    mcpRoutes({
      access: createMcpAccess({ auth, limiter, log }),
      newServer: createToolServerFactory({ tools: toolCatalogue(tools), log }),
      sessions: mcpSessions,
      bodyLimitBytes,
      log,
    }),
  );
  app.use(jsonBodies({ routes: api, limitBytes: bodyLimitBytes }));
  app.use(routerOf(api));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
};
