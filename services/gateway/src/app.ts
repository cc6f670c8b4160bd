import type { ResponseForm } from "@scan/contract";
import type { Readiness } from "@scan/platform";
import type { Queue } from "bullmq";
import express, { type Express } from "express";
import type { Logger } from "pino";
import type { Authenticator } from "./access/authenticate";
import type { IdempotencyStore } from "./access/idempotency-store";
import { assertRulesCover, type KeyScope } from "./access/key-scope";
import type { RateLimiter } from "./access/rate-limiter";
import type { AlertService, AuditService, HistoryService, ScheduleService } from "./audits";
import { alertRoutes, auditRoutes } from "./audits";
import { AUTH_PREFIX, type AuthRouteDeps, accountRoutes, authRoutes, INVITATION_LOOKUP } from "./auth";
import { type ClientService, clientRoutes, type UsageService, usageRoutes } from "./clients";
import { createApiDocument, NOT_YET_MOUNTED, operationOf } from "./docs/openapi";
import { evaluateRoutes, generatorRoutes } from "./generators";
import { apiAccess } from "./http/api-access";
import { createCors } from "./http/cors";
import { errorHandler, notFound } from "./http/errors";
import { httpsOnly } from "./http/https-only";
import { idempotentRequests } from "./http/idempotency";
import { jsonBodies } from "./http/json-body";
import { createMcpAccess } from "./http/mcp-access";
import { rateLimitShown } from "./http/rate-limit-shown";
import { requestContext } from "./http/request-context";
import { observeRequests } from "./http/request-log";
import { wellFormedRequest } from "./http/request-shape";
import { API_PREFIX, type Route, routerOf } from "./http/route";
import { sessionCallerOf } from "./http/session-access";
import type { KeyService } from "./keys";
import { keyRoutes } from "./keys";
import type { McpSessions } from "./mcp";
import { createToolServerFactory, MCP_OPERATIONS, MCP_PATHS, mcpRoutes, type Tools, toolCatalogue } from "./mcp";
import type { GatewayMetrics } from "./observability/metrics";
import type { Operations } from "./ops";
import {
  adminRoutes,
  DASHBOARD_PATH,
  dashboardRoutes,
  docsRoutes,
  operationsRoutes,
  opsRoutes,
  type Reference,
} from "./ops";
import { type BrandingService, brandingRoutes, LOGO_PATH, logoRoutes, type ReportService } from "./reports";
import type { ScanService } from "./scans";
import { type ProgressDeps, progressRoutes, scanListRoutes, scanRoutes } from "./scans";
import type { CitationService, KeywordService, SiteCredentials, SiteService } from "./sites";
import { citationRoutes, keywordRoutes, siteRoutes } from "./sites";
import {
  type CitedPagesService,
  type CompetitorService,
  citedPageRoutes,
  competitorRoutes,
  type EngineKeyService,
  engineKeyRoutes,
  type ProfileService,
  type PromptService,
  type RunObservationReader,
  type RunService,
  runRoutes,
  visibilityRoutes,
} from "./visibility";
import { type AuditLogService, auditLogRoutes, type WorkspaceService, workspaceRoutes } from "./workspaces";

export type AppDeps = {
  scans: ScanService;
  keys: KeyService;
  sites: SiteService;
  /** the credentials of sites behind a login */
  siteCredentials: SiteCredentials;
  audits: AuditService;
  schedules: ScheduleService;
  history: HistoryService;
  /** a site's regression alerts, read-only */
  alerts: AlertService;
  keywords: KeywordService;
  citations: CitationService;
  /** workspaces, their members and invitations, and the session's current one */
  workspaces: WorkspaceService;
  /** the workspace's clients: named groups of its sites */
  clients: ClientService;
  /** this month's usage of the workspace and its clients */
  usage: UsageService;
  /** who changed what in a workspace */
  auditLog: AuditLogService;
  /** what a client-scoped or read-only API key may reach, on every route and MCP tool */
  keyScope: KeyScope;
  /** client reports: PDFs of scans and audits */
  reports: ReportService;
  /** the name and logo on the workspace's reports */
  branding: BrandingService;
  /** what sites' AI visibility is tracked with: profiles, prompts, competitors, the workspaces' engine keys */
  visibility: {
    profiles: ProfileService;
    prompts: PromptService;
    competitors: CompetitorService;
    engineKeys: EngineKeyService;
    runs: RunService;
    /** a completed run's cited pages, scanned and set side by side */
    citedPages: CitedPagesService;
    /** a stored run's answers as the evaluator's observations */
    runObservations: RunObservationReader;
  };
  auth: Authenticator;
  /** the dashboard's sign-in, sessions and their JWTs under /auth */
  sessionAuth: AuthRouteDeps;
  /** GET /api/v1/account's quota reading, and GET /api/v1/operations */
  operations: Operations;
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
  /** proxy hops whose X-Forwarded-For and X-Forwarded-Proto are believed; 0 trusts none */
  trustProxy: number;
  /** refuse plain-HTTP requests and send HSTS with this max-age; null serves both schemes alike */
  httpsOnly: { hstsMaxAgeS: number } | null;
  metrics: GatewayMetrics;
  readiness: () => Promise<Readiness>;
  /** /metrics wants this Bearer token when set */
  metricsToken?: string;
  /** the queue dashboard exists only when this is set */
  adminToken?: string;
  /** the queues the dashboard shows */
  queues?: readonly Queue[];
  /** the web dashboard's build (services/dashboard/dist), served under /app/ */
  dashboardDir: string;
  /** origins whose web pages may call the API and the tool server (CORS); `*` any; none by default */
  corsOrigins?: readonly string[];
  /** the Idempotency-Keys of the creating POSTs and their answers */
  idempotency: IdempotencyStore;
  /** the scans' and audits' progress streams (server-sent events) */
  progress: Omit<ProgressDeps, "scans" | "audits">;
};

/** What the declared routes are built on. */
export type RouteDeps = Pick<
  AppDeps,
  | "scans"
  | "keys"
  | "sites"
  | "siteCredentials"
  | "audits"
  | "schedules"
  | "history"
  | "alerts"
  | "keywords"
  | "citations"
  | "workspaces"
  | "clients"
  | "reports"
  | "branding"
  | "visibility"
  | "usage"
  | "auditLog"
  | "sessionAuth"
  | "operations"
  | "limiter"
  | "tools"
  | "metrics"
  | "readiness"
  | "metricsToken"
  | "progress"
>;

/** The routes the app declares, by where they are mounted; the reference page reads `reference`. */
export const declaredRoutes = (
  {
    scans,
    keys,
    sites,
    siteCredentials,
    audits,
    schedules,
    history,
    alerts,
    keywords,
    citations,
    workspaces,
    clients,
    reports,
    branding,
    visibility,
    usage,
    auditLog,
    sessionAuth,
    operations,
    limiter,
    tools,
    metrics,
    readiness,
    metricsToken,
    progress,
  }: RouteDeps,
  reference: Reference,
) => {
  const onRejected = (plan: string) => metrics.rateLimitRejections.inc({ plan });
  return {
    // the REST API, declared route by route: the access middleware and the body parser read the
    // declarations; the reference lists them in this order
    api: [
      ...scanRoutes(scans, reports.scanPdf),
      ...scanListRoutes({ scans, sites, limiter, onRejected }),
      ...evaluateRoutes(visibility.runObservations),
      ...generatorRoutes(tools.generators),
      ...accountRoutes({ operations, limiter }),
      ...usageRoutes(usage),
      ...operationsRoutes(operations),
      ...siteRoutes({ sites, schedules, credentials: siteCredentials, assertScannable: scans.assertScannable }),
      ...clientRoutes(clients),
      ...keywordRoutes(keywords),
      ...citationRoutes(citations),
      ...visibilityRoutes(visibility),
      ...competitorRoutes(visibility.competitors),
      ...keyRoutes(keys),
      ...workspaceRoutes(workspaces),
      ...engineKeyRoutes(visibility.engineKeys),
      ...auditLogRoutes(auditLog),
      ...runRoutes(visibility.runs, reports.visibilityPdf),
      ...citedPageRoutes(visibility.citedPages),
      ...auditRoutes({ audits, schedules, history, auditPdf: reports.auditPdf }),
      ...brandingRoutes(branding),
      ...alertRoutes({ alerts }),
      ...progressRoutes({ scans, audits, ...progress }),
    ],
    sessions: authRoutes(sessionAuth),
    ops: [...opsRoutes({ metrics, readiness, metricsToken }), ...logoRoutes(branding)],
    docs: docsRoutes(reference),
  };
};

/**
 * The API reference of these routes: the declared routes' operations, the tool server's (its
 * router is mounted whole), and those documented before their routes are mounted.
 */
export const referenceOf = ({ api, sessions, ops, docs }: ReturnType<typeof declaredRoutes>) =>
  createApiDocument([
    ...[...api, ...sessions].flatMap((route: Route) => operationOf(route) ?? []),
    ...MCP_OPERATIONS,
    ...[...ops, ...docs].flatMap((route: Route) => operationOf(route) ?? []),
    ...NOT_YET_MOUNTED,
  ]);

/** Stands for a service while routes are read for their declarations alone: calling it throws. */
const unreachable = <T>(): T =>
  new Proxy(() => {}, {
    get: () => unreachable(),
    apply: () => {
      throw new Error("routes read for the API reference alone serve no request");
    },
  }) as T;

/**
 * The API reference without a running app (`pnpm client:generate`): the routes createApp
 * mounts, declared on services no request reaches (a declaration never calls them), so the
 * document is the one /openapi.json serves (tests/openapi.test.ts compares them).
 */
export const describeApi = () => referenceOf(declaredRoutes(unreachable<RouteDeps>(), { document: "" }));

export const createApp = (deps: AppDeps): Express => {
  const {
    auth,
    sessionAuth,
    limiter,
    tools,
    mcpSessions,
    log,
    defaultForm,
    bodyLimitBytes,
    maxUrlBytes,
    trustProxy,
    httpsOnly: https,
    metrics,
    adminToken,
    queues = [],
    dashboardDir,
    corsOrigins = [],
    idempotency,
    keyScope,
  } = deps;
  const onRejected = (plan: string) => metrics.rateLimitRejections.inc({ plan });
  const reference: Reference = { document: "" };
  const routes = declaredRoutes(deps, reference);
  const { api, sessions: sessionRoutes, ops, docs } = routes;
  // every route a key can call has its rule for client-scoped keys, or the app is not built
  assertRulesCover(api);
  // the reference describes what is mounted here, built once
  reference.document = JSON.stringify(referenceOf(routes));
  const cors = createCors({ origins: corsOrigins });
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // a number trusts exactly that many hops from the socket; 0 (false) makes req.ip the socket's address
  app.set("trust proxy", trustProxy === 0 ? false : trustProxy);
  app.use(requestContext(defaultForm));
  // the session endpoints answer in Form A, and nothing of theirs is kept by a cache
  app.use(AUTH_PREFIX, (req, res, next) => {
    res.locals.form = "A";
    res.setHeader("Cache-Control", "no-store");
    // an invitation's token is in its path: the logs get the pattern
    if (req.path.startsWith(INVITATION_LOOKUP)) res.locals.loggedPath = `${AUTH_PREFIX}${INVITATION_LOOKUP}:token`;
    next();
  });
  // a report logo's unguessable token is its only protection: the logs get the pattern
  app.use(LOGO_PATH, (_req, res, next) => {
    res.locals.loggedPath = `${LOGO_PATH}/:token`;
    next();
  });
  // every declared path is a label of the request metrics
  app.use(
    observeRequests({
      log,
      metrics,
      paths: [...api, ...sessionRoutes, ...ops, ...docs].map((r) => r.path).concat(MCP_PATHS),
    }),
  );
  // before authentication: a key sent over plain HTTP is never looked up nor counted
  if (https) {
    app.use(httpsOnly({ trustProxy, hstsMaxAgeS: https.hstsMaxAgeS, loopbackPaths: [DASHBOARD_PATH] }));
  }
  // CORS headers on every answer of the API and the tool server, errors included; preflights are marked
  app.use(cors.corsHeaders);
  // authentication and rate limits before bodies are read: a refused caller's body is never parsed
  app.use(
    API_PREFIX,
    apiAccess({ routes: api, auth, limiter, log, onRejected, sessionCaller: sessionCallerOf(sessionAuth.sessions) }),
  );
  // every other response shows the caller's counter too, read without spending
  app.use(rateLimitShown({ auth, limiter, log }));
  app.use(wellFormedRequest({ maxUrlBytes }));
  // preflights carry no credentials and do no work: answered here, never counted
  app.use(cors.answerPreflights);
  // probes and metrics come before body parsing and any API authentication
  app.use(routerOf(ops));
  // the API reference and the icon: public, outside /api/v1 and its rate limits
  app.use(routerOf(docs));
  app.use(adminRoutes({ token: adminToken, queues }));
  // the web dashboard: static files under a strict Content-Security-Policy
  app.use(dashboardRoutes({ dir: dashboardDir }));
  // the MCP tool server (docs/spec/public-scanning-api.md §4.8): its own authentication, counting and JSON-RPC errors
  app.use(
    mcpRoutes({
      access: createMcpAccess({ auth, limiter, log }),
      newServer: createToolServerFactory({ tools: toolCatalogue(tools), log, scope: keyScope }),
      sessions: mcpSessions,
      bodyLimitBytes,
      log,
    }),
  );
  app.use(jsonBodies({ routes: [...api, ...sessionRoutes], limitBytes: bodyLimitBytes }));
  app.use(routerOf(api, { around: idempotentRequests({ store: idempotency }), scope: keyScope }));
  // the dashboard's session endpoints: cookies and CSRF tokens, no Idempotency-Key
  app.use(routerOf(sessionRoutes));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
};
