import { lookup } from "node:dns/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve as resolvePath } from "node:path";
import { createReportRenderer } from "@scan/client-reports";
import type { Db } from "@scan/db";
import type { LlmEndpoint } from "@scan/generators";
import {
  parseAllowlist,
  parsePorts,
  probeAll,
  type Readiness,
  siteSecretsBox,
  warnIfRedisEvicts,
} from "@scan/platform";
import { AUDIT_PAGE_PRIORITY, SCAN_QUEUE, VISIBILITY_QUEUE, WEBHOOK_QUEUE } from "@scan/queue";
import { type EngineId, type OperatorEngine, operatorEnginesOf, visibilityBudgetsOf } from "@scan/visibility";
import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { createAuthenticator } from "./access/authenticate";
import { startCredentialFeed } from "./access/credential-changes";
import { createIdempotencyStore } from "./access/idempotency-store";
import { createJwtVerifier } from "./access/jwt-verifier";
import { createKeyCache, type KeyCache } from "./access/key-cache";
import { createKeyScope } from "./access/key-scope";
import { createRateLimiter, type RateLimitTable } from "./access/rate-limiter";
import { createSessionService } from "./access/session-service";
import { createApp } from "./app";
import {
  createAlertService,
  createAuditService,
  createHistoryService,
  createLiveWork,
  createScheduleService,
} from "./audits";
import {
  createAccountService,
  createOneTimeLinks,
  createPasswordCheck,
  createSignInThrottle,
  expiryOf,
  issueUserToken,
  jwtKeysFrom,
} from "./auth";
import { createClientService, createUsageService } from "./clients";
import { type Config, httpsRequired } from "./config";
import { createGeneratorTools } from "./generators";
import { answerClientError, answerConnect } from "./http/errors";
import { createEventStreams } from "./http/event-stream";
import { createKeyService } from "./keys";
import { createAuditTools, createKeywordTools, createMcpSessions, createVisibilityTools } from "./mcp";
import { createGatewayMetrics, type GatewayMetrics } from "./observability/metrics";
import { createOperations, DASHBOARD_PATH } from "./ops";
import { createBrandingService, createReportService } from "./reports";
import { createAdmission, createPageTools, createScanService, ScanWaiter, terminalScansAmong } from "./scans";
import {
  createCitationService,
  createKeywordService,
  createSearchConsoleReader,
  createSiteCredentials,
  createSiteService,
} from "./sites";
import {
  createCitedPagesService,
  createCompetitorService,
  createEngineKeyService,
  createProfileService,
  createPromptService,
  createRunObservationReader,
  createRunService,
  createVetDomains,
} from "./visibility";
import { createAuditLogService, createWorkspaceService } from "./workspaces";

/** The dashboard's build in this checkout (`pnpm --filter @scan/dashboard build` writes it). */
const DASHBOARD_BUILD = resolvePath(__dirname, "../../dashboard/dist");

/** how often expired idempotency keys are deleted */
const IDEMPOTENCY_SWEEP_MS = 10 * 60_000;
/** how long an Idempotency-Key's claim holds without renewal; its request renews it every third of this */
const IDEMPOTENCY_LEASE_MS = 15_000;

/** how long the queue clients get to close cleanly at shutdown */
const CLIENT_CLOSE_MS = 2_000;
/** an invitation into a workspace works this long, as the accounts command's sign-up invitations do by default */
const WORKSPACE_INVITATION_LIFETIME_S = 7 * 86_400;

export type Gateway = {
  server: Server;
  url: string;
  metrics: GatewayMetrics;
  /** API keys held in this process (see key-cache) */
  keyCache: KeyCache;
  close: () => Promise<void>;
};

/** The model generate drafts with, or null (extractive only) when LLM_BASE_URL is not set. */
const llmEndpoint = (config: Config): LlmEndpoint | null =>
  config.LLM_BASE_URL && config.LLM_API_KEY && config.LLM_MODEL
    ? {
        baseUrl: config.LLM_BASE_URL,
        apiKey: config.LLM_API_KEY,
        model: config.LLM_MODEL,
        timeoutMs: config.LLM_TIMEOUT_MS,
        maxInputChars: config.LLM_MAX_INPUT_CHARS,
      }
    : null;

const untilReady = (redis: Redis): Promise<void> =>
  redis.status === "ready" ? Promise.resolve() : new Promise((resolve) => redis.once("ready", () => resolve()));

const resolveAll = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * Wires and starts the gateway: one Queue and one QueueEvents per process, the waiter over
 * them, the express app, and an ordered, bounded close.
 */
export const startGateway = async ({ config, db, log }: { config: Config; db: Db; log: Logger }): Promise<Gateway> => {
  // first: a production gateway without a JWT key stops here, before it connects to anything
  const jwtKeys = jwtKeysFrom(config);
  if (jwtKeys.development) {
    log.warn(
      { path: jwtKeys.development.path },
      jwtKeys.development.created
        ? "no JWT key is configured: made a development key (set JWT_SECRET for production)"
        : "no JWT key is configured: using the development key made earlier (set JWT_SECRET for production)",
    );
  }
  const allowlist = parseAllowlist(config.SCAN_ALLOWLIST);
  if (allowlist.size > 0)
    log.warn({ allowlist: [...allowlist] }, "SCAN_ALLOWLIST is set: these private targets may be scanned");
  // the queue fails fast while Redis is down, so a request is answered instead of hanging
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  connection.on("error", (error) => log.warn({ err: error.message }, "redis connection error"));
  // QueueEvents blocks on XREAD: its connection needs maxRetriesPerRequest null
  const eventsConnection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  eventsConnection.on("error", (error) => log.warn({ err: error.message }, "redis events connection error"));
  const queue = new Queue(SCAN_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  queue.on("error", (error) => log.warn({ err: error.message }, "queue error"));
  const events = new QueueEvents(SCAN_QUEUE, { connection: eventsConnection, prefix: config.QUEUE_PREFIX });
  events.on("error", (error) => log.warn({ err: error.message }, "queue events error"));
  // the rate counters: their own connection, failing fast like the queue's
  // auto-pipelining: the counters of requests arriving together go to Redis in one write
  const limiterConnection = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
  });
  limiterConnection.on("error", (error) => log.warn({ err: error.message }, "redis rate-limit connection error"));
  // the gateway never adds deliveries; it shows them on the dashboard and in the metrics
  const webhooks = new Queue(WEBHOOK_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  webhooks.on("error", (error) => log.warn({ err: error.message }, "webhook queue error"));
  // a visibility run's samples go to a queue of their own, never into the scan workers' slots
  const visibilityQueue = new Queue(VISIBILITY_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
  visibilityQueue.on("error", (error) => log.warn({ err: error.message }, "visibility queue error"));
  await connection.ping().catch(() => undefined);
  void warnIfRedisEvicts(connection, log);
  await events.waitUntilReady();
  await untilReady(limiterConnection);
  const waiter = new ScanWaiter(events, terminalScansAmong(db));
  const monthlyQuotas = {
    free: config.SCAN_QUOTA_FREE,
    starter: config.SCAN_QUOTA_STARTER,
    pro: config.SCAN_QUOTA_PRO,
    agency: config.SCAN_QUOTA_AGENCY,
  };
  const scans = createScanService({
    db,
    queue,
    log,
    waiter,
    allowlist,
    ports: parsePorts(config.SCAN_PORTS),
    resolve: resolveAll,
    waitMs: config.SCAN_WAIT_MS,
    monthlyQuotas,
    callbacksEnabled: config.WEBHOOK_SECRET !== undefined,
    priorityWeights: config.PLAN_PRIORITY_WEIGHTS,
    admission:
      config.ADMISSION_CONTROL === "on"
        ? createAdmission({
            load: async () => {
              // audit pages wait below every interactive scan: only those already running are
              // ahead of one (visibility samples are on a queue of their own and take no scan slot)
              const [counts, below] = await Promise.all([
                queue.getJobCounts("waiting", "prioritized", "active"),
                queue.getCountsPerPriority([AUDIT_PAGE_PRIORITY]),
              ]);
              const behind = below[AUDIT_PAGE_PRIORITY] ?? 0;
              const ahead = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0) - behind;
              return { ahead, workers: await queue.getWorkersCount() };
            },
            concurrencyPerWorker: config.SCAN_SLOTS_PER_WORKER,
          })
        : null,
  });
  const keyCache = createKeyCache({ ttlMs: config.KEY_CACHE_TTL_MS, maxEntries: config.KEY_CACHE_MAX });
  const credentialFeed =
    config.KEY_CACHE_TTL_MS > 0
      ? startCredentialFeed({ databaseUrl: config.DATABASE_URL, cache: keyCache, log })
      : null;
  const verifyJwt = createJwtVerifier(jwtKeys.verifier);
  if (!jwtKeys.signer) log.warn("JWT_PRIVATE_KEY is not set: POST /auth/token answers 503 (RS256)");
  const signer = jwtKeys.signer;
  const limiter = createRateLimiter({
    redis: limiterConnection,
    prefix: config.RATE_LIMIT_PREFIX,
    windowS: config.RATE_LIMIT_WINDOW_S,
    limits: rateLimitTable(config),
    signIn: {
      perAddress: config.SIGN_IN_LIMIT_ADDRESS,
      perAccount: config.SIGN_IN_LIMIT_ACCOUNT,
      windowS: config.SIGN_IN_WINDOW_S,
    },
  });
  const sessions = createSessionService({
    db,
    lifetimes: { idleMs: config.SESSION_IDLE_S * 1000, maxMs: config.SESSION_MAX_S * 1000 },
  });
  const dependencies = () =>
    probeAll(
      { postgres: () => db.$queryRaw`SELECT 1`, redis: () => connection.ping() },
      config.READY_TIMEOUT_MS,
      (name, cause) => log.warn({ dependency: name, err: (cause as Error).message }, "readiness probe failed"),
    );
  const metrics = createGatewayMetrics({
    queues: [queue, visibilityQueue, webhooks],
    timeoutMs: config.READY_TIMEOUT_MS,
    dependencies,
    onError: (error) => log.warn({ err: (error as Error).message }, "queue depth unavailable for metrics"),
  });
  let draining = false;
  const readiness = async (): Promise<Readiness> => {
    // a gateway that is shutting down takes itself out of the load balancer first
    if (draining) return { ok: false, checks: { accepting: { ok: false, ms: 0, error: "not ready" } } };
    return dependencies();
  };
  const requireHttps = httpsRequired(config);
  if (requireHttps && config.TRUST_PROXY === 0) {
    log.warn(
      "HTTPS is required and TRUST_PROXY is 0: the gateway itself speaks plain HTTP, so every request but the probes and /metrics is refused; run it behind a TLS-terminating proxy and set TRUST_PROXY, or set REQUIRE_HTTPS=off",
    );
  }
  const sites = createSiteService({ db });
  const pagesByPlan = {
    free: config.AUDIT_PAGES_FREE,
    starter: config.AUDIT_PAGES_STARTER,
    pro: config.AUDIT_PAGES_PRO,
    agency: config.AUDIT_PAGES_AGENCY,
  };
  const mcpSessions = createMcpSessions({ maxPerKey: config.MCP_SSE_SESSIONS_PER_KEY, keepAliveMs: 15_000 });
  const llm = llmEndpoint(config);
  if (llm) log.info({ model: llm.model, host: new URL(llm.baseUrl).host }, "content generation drafts with a model");
  const pages = createPageTools({ scans });
  const idempotency = createIdempotencyStore({
    db,
    ttlMs: config.IDEMPOTENCY_TTL_S * 1000,
    // renewed every 5 s while its request runs, however long: only a claim whose gateway died
    // (or lost the database for longer) is taken over, within 15 s of its last renewal
    leaseMs: IDEMPOTENCY_LEASE_MS,
  });
  // expired keys are deleted in the background, a batch at a time; every gateway may do it
  const sweepKeys = () =>
    void idempotency.sweep().catch((error: unknown) => {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "expired idempotency keys not swept");
    });
  const sweeper = setInterval(sweepKeys, IDEMPOTENCY_SWEEP_MS);
  sweeper.unref();
  sweepKeys();
  const audits = createAuditService({
    db,
    queue,
    liveWork: createLiveWork(queue),
    log,
    pagesByPlan,
    activePerUser: config.AUDITS_ACTIVE_PER_USER,
    assertScannable: scans.assertScannable,
  });
  const branding = createBrandingService({ db });
  const renderer = createReportRenderer({
    dashboardDir: config.DASHBOARD_DIR ?? DASHBOARD_BUILD,
    chromiumPath: config.REPORT_CHROMIUM_PATH,
    concurrency: config.REPORT_PDFS_AT_ONCE,
    timeoutMs: config.REPORT_PDF_TIMEOUT_MS,
    log,
  });
  const secrets = siteSecretsBox(config.SITE_SECRETS_KEY);
  const vetDomains = createVetDomains(scans.assertScannable);
  const visibility = {
    profiles: createProfileService({ db, vetDomains }),
    prompts: createPromptService({ db, sites }),
    competitors: createCompetitorService({
      db,
      sites,
      vetDomains,
      competitorsByPlan: {
        free: config.COMPETITORS_FREE,
        starter: config.COMPETITORS_STARTER,
        pro: config.COMPETITORS_PRO,
        agency: config.COMPETITORS_AGENCY,
      },
    }),
    engineKeys: createEngineKeyService({ db, box: secrets }),
    runs: createRunService({
      db,
      queue: visibilityQueue,
      operatorEngines: new Set(
        (Object.entries(operatorEnginesOf(config)) as [EngineId, OperatorEngine][])
          .filter(([, engine]) => engine.apiKey !== undefined)
          .map(([id]) => id),
      ),
      budgets: visibilityBudgetsOf(config),
      samplesAhead: config.VISIBILITY_SAMPLES_AHEAD,
      log,
    }),
    citedPages: createCitedPagesService({
      db,
      scans,
      limits: {
        brandPages: config.CITED_PAGES_BRAND,
        competitorPages: config.CITED_PAGES_COMPETITOR,
        reuseWithinMs: config.CITED_PAGES_REUSE_HOURS * 3_600_000,
      },
      log,
    }),
    runObservations: createRunObservationReader(db),
  };
  const reports = createReportService({ db, audits, branding, renderer, runs: visibility.runs });
  const streams = createEventStreams({
    maxPerUser: config.PROGRESS_STREAMS_PER_USER,
    heartbeatMs: 15_000,
    lifetimeMs: config.PROGRESS_STREAM_LIFETIME_S * 1000,
    retryMs: 2_000,
  });
  const keywords = createKeywordService({
    db,
    sites,
    searchConsole: createSearchConsoleReader({
      rootUrl: config.SEARCH_CONSOLE_ROOT_URL,
      timeoutMs: config.SEARCH_CONSOLE_TIMEOUT_MS,
    }),
  });
  const app = createApp({
    scans,
    tools: {
      pages,
      generators: createGeneratorTools({ pages, db, llm }),
      audits: createAuditTools({ audits, sites, assertScannable: scans.assertScannable }),
      visibility: createVisibilityTools(visibility),
      keywords: createKeywordTools({ keywords }),
    },
    mcpSessions,
    // a key revoked here is dropped from this process's cache before the answer; other processes hear of it from Postgres
    keys: createKeyService({ db, maxKeysPerUser: config.MAX_KEYS_PER_USER, onRevoked: keyCache.invalidateKey }),
    sites,
    siteCredentials: createSiteCredentials({ db, box: secrets }),
    audits,
    history: createHistoryService({ db }),
    alerts: createAlertService({ db }),
    schedules: createScheduleService({
      db,
      queue,
      pagesByPlan,
      vetDeliveryUrl: scans.vetDeliveryUrl,
      webhooksEnabled: config.WEBHOOK_SECRET !== undefined,
      mailEnabled: config.SMTP_URL !== undefined,
      schedulesByPlan: {
        free: config.AUDIT_SCHEDULES_FREE,
        starter: config.AUDIT_SCHEDULES_STARTER,
        pro: config.AUDIT_SCHEDULES_PRO,
        agency: config.AUDIT_SCHEDULES_AGENCY,
      },
    }),
    clients: createClientService({ db }),
    usage: createUsageService({ db, monthlyQuotas }),
    auditLog: createAuditLogService({ db }),
    keyScope: createKeyScope({ db }),
    keywords,
    citations: createCitationService({ db, sites }),
    reports,
    branding,
    visibility,
    workspaces: createWorkspaceService({
      db,
      invite: createOneTimeLinks({ db, publicUrl: config.PUBLIC_URL }).workspaceInvite,
      invitationLifetimeS: WORKSPACE_INVITATION_LIFETIME_S,
      onKeyRevoked: keyCache.invalidateKey,
    }),
    auth: createAuthenticator({ db, verifyJwt, cache: keyCache, sessionIdleMs: sessions.idleMs }),
    sessionAuth: {
      accounts: createAccountService({
        db,
        sessions,
        signUpMode: config.SIGN_UP,
        checkPassword: await createPasswordCheck(),
      }),
      sessions,
      throttle: createSignInThrottle({ limiter, log }),
      signToken: signer
        ? (user, sessionId, lifetimeS) => {
            const token = issueUserToken(signer, user, lifetimeS, sessionId);
            return { token, expiresAt: expiryOf(token) };
          }
        : null,
      tokenLifetimeS: config.USER_TOKEN_TTL_S,
    },
    operations: createOperations({
      db,
      queue,
      monthlyQuotas,
      queueDashboard: config.ADMIN_TOKEN ? DASHBOARD_PATH : null,
    }),
    limiter,
    log,
    defaultForm: config.RESPONSE_FORM,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    maxUrlBytes: config.MAX_URL_BYTES,
    trustProxy: config.TRUST_PROXY,
    httpsOnly: requireHttps ? { hstsMaxAgeS: config.HSTS_MAX_AGE_S } : null,
    metrics,
    readiness,
    metricsToken: config.METRICS_TOKEN,
    adminToken: config.ADMIN_TOKEN,
    queues: [queue, visibilityQueue, webhooks],
    dashboardDir: config.DASHBOARD_DIR ?? DASHBOARD_BUILD,
    corsOrigins: config.CORS_ORIGINS,
    idempotency,
    progress: {
      streams,
      pollMs: config.PROGRESS_POLL_MS,
      scanEnded: (scanId, ms, signal) => waiter.wait(scanId, ms, signal),
    },
  });

  const server = createServer(
    {
      maxHeaderSize: config.MAX_HEADER_BYTES,
      // slow clients (a trickle of headers or body) are cut off by these limits, checked this often;
      // Node's defaults (60 s, 300 s, checked every 30 s) let hundreds of them hold sockets for minutes
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.HEADERS_TIMEOUT_MS / 4)),
      keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    },
    app,
  );
  server.on("clientError", answerClientError(config.RESPONSE_FORM, log));
  server.on("connect", answerConnect(config.RESPONSE_FORM));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;
  const url = `http://${host}:${address.port}`;

  const close = async () => {
    draining = true;
    clearInterval(sweeper);
    // stop intake; requests in flight get until the deadline, then their waits end as 202s;
    // idle SSE sessions end now, busy ones after their last tool call
    mcpSessions.drain();
    // progress streams end now: their clients reconnect, to another gateway, with Last-Event-ID
    streams.closeAll();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(resolve, config.SHUTDOWN_TIMEOUT_MS, false).unref()),
    ]);
    if (!drained) {
      waiter.close();
      server.closeAllConnections();
    }
    waiter.close();
    // A client caught between reconnect attempts (Redis just came back) never emits the "end"
    // that BullMQ's close waits for: give the clean close a moment, then drop the connections.
    await Promise.race([
      Promise.all([events.close(), queue.close(), visibilityQueue.close(), webhooks.close(), renderer.close()]),
      new Promise((resolve) => setTimeout(resolve, CLIENT_CLOSE_MS).unref()),
    ]);
    await credentialFeed?.stop();
    eventsConnection.disconnect();
    connection.disconnect();
    limiterConnection.disconnect();
  };
  return { server, url, metrics, keyCache, close };
};

/** The spec's two columns of limits (§8): Form B's differs only for Pro. */
const rateLimitTable = (config: Config): RateLimitTable => {
  const formA = {
    free: config.RATE_LIMIT_FREE,
    starter: config.RATE_LIMIT_STARTER,
    pro: config.RATE_LIMIT_PRO,
    agency: config.RATE_LIMIT_AGENCY,
  };
  return {
    anonymous: config.RATE_LIMIT_ANONYMOUS,
    anonymousReads: config.RATE_LIMIT_ANONYMOUS_READS,
    sessionReads: config.RATE_LIMIT_SESSION_READS,
    byForm: { A: formA, B: { ...formA, pro: config.RATE_LIMIT_PRO_FORM_B } },
    serviceForm: config.RESPONSE_FORM,
  };
};
