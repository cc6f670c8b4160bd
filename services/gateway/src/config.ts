import { createPublicKey } from "node:crypto";
import { ResponseForm } from "@scan/contract";
import { CommonConfig, intFrom, OpsConfig, optionalSecret, parseConfig } from "@scan/platform";
import { PlanPriorityWeights } from "@scan/queue";
import { OperatorEngineSettings, VisibilityBudgetSettings } from "@scan/visibility";
import { z } from "zod";

/** An unset or blank variable is absent (compose files pass `VAR=` for "not set"). */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** A monthly quota: a whole number of scans, or `unlimited` (null). */
const quotaFrom = (fallback: number | "unlimited") =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .pipe(z.string().regex(/^(unlimited|\d{1,9})$/, 'must be a whole number or "unlimited"'))
    .transform((value) => (value === "unlimited" ? null : Number(value)));

/**
 * The origins whose web pages may call the API from a browser (CORS): `*`, or exact origins
 * (`scheme://host[:port]`, as a browser sends them in `Origin`), comma-separated.
 */
const corsOrigins = z
  .string()
  .default("")
  .transform((value, ctx) => {
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    if (entries.includes("*")) {
      if (entries.length > 1) ctx.addIssue({ code: "custom", message: "`*` allows every origin: give it alone" });
      return ["*"];
    }
    const origins: string[] = [];
    for (const entry of entries) {
      let url: URL | null = null;
      try {
        url = new URL(entry);
      } catch {
        // reported below
      }
      const origin = url && /^https?:$/.test(url.protocol) ? url.origin : null;
      if (origin === null || origin !== entry.replace(/\/$/, "")) {
        ctx.addIssue({
          code: "custom",
          message: origin
            ? `${entry} is not an origin: write it as ${origin} (scheme, host and a non-default port, nothing else)`
            : `${entry} is not an http(s) origin such as https://app.example.com`,
        });
        continue;
      }
      origins.push(origin);
    }
    return origins;
  });

/** JWT settings for the key endpoints; the accounts CLI reads the same ones to sign tokens. */
export const JwtFields = {
  NODE_ENV: optionalText.describe(
    "`production` (the images set it): a missing JWT key (JWT_SECRET, or JWT_PUBLIC_KEY with RS256) stops the program, otherwise a development key is made under DATA_DIR; and `REQUIRE_HTTPS=auto` is on",
  ),
  DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default(".data")
    .describe(
      "where a development gateway keeps its JWT key (`jwt-dev-secret`, mode 0600) when none is configured; relative to the working directory. Never used with NODE_ENV=production",
    ),
  JWT_ALGORITHM: z
    .enum(["HS256", "RS256"])
    .default("HS256")
    .describe("`HS256` (shared secret) or `RS256` (public key); the only algorithm accepted"),
  JWT_SECRET: optionalText
    .pipe(z.string().min(32, "must be at least 32 characters").optional())
    .describe(
      "HS256 secret, ≥ 32 characters; unset: a development key under DATA_DIR, or, with NODE_ENV=production, the program stops",
    ),
  JWT_PUBLIC_KEY: optionalText
    .transform((value) => value?.replaceAll("\\n", "\n"))
    .describe("RS256 public key, PEM (`\\n` escapes allowed); required with `RS256`"),
  JWT_ISSUER: optionalText.describe("when set, tokens must carry this `iss`"),
  JWT_AUDIENCE: optionalText.describe("when set, tokens must carry this `aud`"),
  JWT_CLOCK_TOLERANCE_S: intFrom(5, 0, 300).describe("clock skew allowed on `exp` and `nbf`"),
  JWT_PRIVATE_KEY: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.replaceAll("\\n", "\n") : undefined))
    .describe(
      "RS256 private key, PEM (`\\n` escapes allowed), with which the gateway signs the dashboard's JWTs (`POST /auth/token`) and `accounts token` signs; HS256 signs with `JWT_SECRET`. Unset under RS256: `POST /auth/token` answers 503",
    ),
};

/** Where the links the service makes point: the gateway as users' browsers reach it. */
const PUBLIC_URL = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .default("http://127.0.0.1:3000")
  .transform((value) => value.replace(/\/+$/, ""));

/** Dashboard accounts: sign-up, sessions, their JWTs and the sign-in throttle. */
const SessionFields = {
  PUBLIC_URL: PUBLIC_URL.describe(
    "the gateway's address as users' browsers reach it: the links of invitations into a workspace start with it",
  ),
  SIGN_UP: z
    .enum(["open", "invite"])
    .default("invite")
    .describe(
      "`open`: anyone may create an account at `POST /auth/sign-up`; `invite`: only with an invitation from `pnpm accounts invite`",
    ),
  SESSION_IDLE_S: intFrom(86_400, 60, 30 * 86_400).describe(
    "a dashboard session unused for this long ends (seconds; its use is recorded to the minute)",
  ),
  SESSION_MAX_S: intFrom(7 * 86_400, 60, 366 * 86_400).describe(
    "a dashboard session ends this long after sign-in, however much it is used (seconds)",
  ),
  USER_TOKEN_TTL_S: intFrom(300, 30, 3_600).describe(
    "lifetime of a JWT from `POST /auth/token` (seconds); it never outlives its session, and dies with it",
  ),
  SIGN_IN_LIMIT_ADDRESS: intFrom(30, 1, 1_000_000).describe(
    "sign-in, sign-up and password-reset attempts per client address per SIGN_IN_WINDOW_S",
  ),
  SIGN_IN_LIMIT_ACCOUNT: intFrom(10, 1, 1_000_000).describe(
    "sign-in and password-change attempts per account (email) per SIGN_IN_WINDOW_S; a successful sign-in clears the count",
  ),
  SIGN_IN_WINDOW_S: intFrom(900, 1, 86_400).describe("the sign-in throttle's window, in seconds"),
};

/** The gateway's whole configuration, from the environment, parsed once at start-up. */
export const Config = z
  .object({
    ...CommonConfig,
    ...OpsConfig,
    ...OperatorEngineSettings,
    ...VisibilityBudgetSettings,
    ADMIN_TOKEN: optionalSecret().describe(
      "opens the queue dashboard at `/admin/queues` (16+ characters); unset, the dashboard does not exist (404)",
    ),
    PORT: intFrom(3000, 0, 65535).describe("the port the API listens on"),
    VISIBILITY_SAMPLES_AHEAD: intFrom(128, 1, 10_000).describe(
      "a visibility run's sample jobs on the queue at a time: queued when the run starts, each sample that ends queueing the next; keep it above the visibility slots of every worker (workers × VISIBILITY_WORKER_CONCURRENCY)",
    ),
    DASHBOARD_DIR: optionalText.describe(
      "the web dashboard's build, served under `/app/`; unset: `services/dashboard/dist` of this checkout",
    ),
    REPORT_CHROMIUM_PATH: optionalText.describe(
      "the Chromium that prints client reports (PDFs); unset: Debian's `chromium-headless-shell` or `chromium` where installed (none: a PDF is 503)",
    ),
    REPORT_PDFS_AT_ONCE: intFrom(2, 1, 16).describe("client reports (PDFs) made at once; more wait their turn"),
    REPORT_PDF_TIMEOUT_MS: intFrom(30_000, 1_000, 120_000).describe(
      "the longest one client report may take, its wait for a turn included (then 503)",
    ),
    SEARCH_CONSOLE_ROOT_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default("https://searchconsole.googleapis.com/")
      .describe(
        "the Search Console API's root that `POST /api/v1/sites/{id}/keywords/search-console` asks (searchanalytics.query) with the caller's OAuth access token",
      ),
    SEARCH_CONSOLE_TIMEOUT_MS: intFrom(20_000, 1_000, 60_000).describe(
      "the longest a Search Console API answer is waited for (then 502)",
    ),
    HOST: z.string().default("0.0.0.0").describe("the address the API listens on"),
    SCAN_WAIT_MS: intFrom(30_000, 1, 34_000).describe("how long POST /scan waits before answering 202 (max 34,000)"),
    RESPONSE_FORM: ResponseForm.default("A").describe("envelope when a request has no `X-Response-Form`"),
    IDEMPOTENCY_TTL_S: intFrom(86_400, 60, 604_800).describe(
      "how long an `Idempotency-Key` and the answer it got are kept: a retry within it is answered that answer again, a later one is a new request",
    ),
    CORS_ORIGINS: corsOrigins.describe(
      "origins whose web pages may call `/api/v1` and the tool server from a browser (CORS), comma-separated `scheme://host[:port]` exactly as browsers send `Origin`, or `*` for any; empty: none (preflights are 403). Keys in a public web page are readable by anyone: see the API reference, CORS",
    ),
    BODY_LIMIT_BYTES: intFrom(100 * 1024, 1024, 10 * 1024 * 1024).describe("largest JSON body"),
    MAX_HEADER_BYTES: intFrom(16 * 1024, 1024, 1024 * 1024).describe(
      "largest request head (request line and headers); larger is 431",
    ),
    MAX_URL_BYTES: intFrom(8 * 1024, 256, 1024 * 1024).describe(
      "longest request URL (path and query) in bytes; longer is 414 (a URL over MAX_HEADER_BYTES is 431)",
    ),
    DATABASE_POOL_SIZE: intFrom(10, 1, 1_000).describe(
      "Postgres connections the gateway holds open at most; requests beyond them wait for one",
    ),
    DATABASE_POOL_WAIT_MS: intFrom(10_000, 100, 120_000).describe(
      "how long a request's query or transaction waits for a free Postgres connection; past it the request answers 503 with Retry-After (the database is busy) rather than waiting on",
    ),
    HEADERS_TIMEOUT_MS: intFrom(10_000, 100, 600_000).describe(
      "time a client has to send the request line and headers; a slower one gets 408 and the connection is closed",
    ),
    REQUEST_TIMEOUT_MS: intFrom(60_000, 100, 3_600_000).describe(
      "time a client has to send the whole request, body included (a full BODY_LIMIT_BYTES body needs BODY_LIMIT_BYTES / this much speed: about 1.7 KB/s by default); a slower one gets 408 and the connection is closed. The time to answer is not counted",
    ),
    KEEP_ALIVE_TIMEOUT_MS: intFrom(5_000, 100, 600_000).describe(
      "how long an idle keep-alive connection is kept open between requests",
    ),
    SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 500, 120_000).describe(
      "how long in-flight work may take at SIGTERM before it is handed back",
    ),
    TRUST_PROXY: intFrom(0, 0, 10).describe(
      "proxies in front of the gateway whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (hops); `0`: the socket's address is the client and its scheme the request's",
    ),
    REQUIRE_HTTPS: z
      .enum(["auto", "on", "off"])
      .default("auto")
      .describe(
        "refuse requests that did not arrive over HTTPS (403; pages are redirected with 308; `/healthz`, `/readyz` and `/metrics` are exempt) and send Strict-Transport-Security; `auto`: on when `NODE_ENV` is `production`. Behind a TLS-terminating proxy, set `TRUST_PROXY` so its `X-Forwarded-Proto` is believed",
      ),
    HSTS_MAX_AGE_S: intFrom(31_536_000, 0, 63_072_000).describe(
      "`Strict-Transport-Security: max-age` on HTTPS responses while HTTPS is required, in seconds (`0` tells browsers to forget it)",
    ),
    RATE_LIMIT_ANONYMOUS: intFrom(10, 1, 1_000_000_000).describe(
      "requests per window per client address without a key",
    ),
    RATE_LIMIT_FREE: intFrom(10, 1, 1_000_000_000).describe(
      "requests per window per key, by the owner's plan (the Form A column; Agency's is the fair-use throttle)",
    ),
    RATE_LIMIT_STARTER: intFrom(100, 1, 1_000_000_000).describe(
      "requests per window per key, by the owner's plan (Agency's is the fair-use throttle)",
    ),
    RATE_LIMIT_PRO: intFrom(1_000, 1, 1_000_000_000).describe(
      "requests per window per key, by the owner's plan (Agency's is the fair-use throttle)",
    ),
    RATE_LIMIT_AGENCY: intFrom(10_000, 1, 1_000_000_000).describe(
      "requests per window per key, by the owner's plan (Agency's is the fair-use throttle)",
    ),
    RATE_LIMIT_PRO_FORM_B: intFrom(500, 1, 1_000_000_000).describe(
      "requests per window of a Pro key whose default form is B (or of any Pro caller when `RESPONSE_FORM=B`), as the spec's Form B column; every other plan's Form B limit is its Form A one",
    ),
    RATE_LIMIT_ANONYMOUS_READS: intFrom(600, 1, 1_000_000_000).describe(
      "reads of anonymous scans by their access links (`GET /api/v1/scan/:id?access=...`) per window per client address, counted apart from the anonymous scans themselves",
    ),
    RATE_LIMIT_SESSION_READS: intFrom(3_600, 1, 1_000_000_000).describe(
      "reads (`GET`, `HEAD`) per window per dashboard session, counted apart from the plan's requests: the dashboard's pages and progress streams never spend the API's allowance, while its scans, audits and other changes count against the plan as over the API",
    ),
    RATE_LIMIT_WINDOW_S: intFrom(3_600, 1, 86_400).describe("the rate-limit window, in seconds"),
    RATE_LIMIT_PREFIX: z
      .string()
      .min(1)
      .default("ratelimit")
      .describe("Redis key prefix of the counters (deployments or test runs sharing a Redis use their own)"),
    SCAN_QUOTA_FREE: quotaFrom(100).describe("scans per user per calendar month (UTC); a number or `unlimited`"),
    SCAN_QUOTA_STARTER: quotaFrom(2_000).describe("scans per user per calendar month (UTC); a number or `unlimited`"),
    SCAN_QUOTA_PRO: quotaFrom(20_000).describe("scans per user per calendar month (UTC); a number or `unlimited`"),
    SCAN_QUOTA_AGENCY: quotaFrom("unlimited").describe(
      "scans per user per calendar month (UTC); a number or `unlimited`",
    ),
    PLAN_PRIORITY_WEIGHTS: PlanPriorityWeights.describe(
      "queue order by plan: each waiting scan of a caller pushes that caller's next one back by the plan's weight (see the API reference, queue order)",
    ),
    ADMISSION_CONTROL: z
      .enum(["on", "off"])
      .default("on")
      .describe("refuse (429) waiting callers whose scan cannot finish within their budget"),
    SCAN_SLOTS_PER_WORKER: intFrom(1, 1, 32).describe(
      "scans one worker runs at once (its `WORKER_CONCURRENCY`), for admission control",
    ),
    AUDIT_PAGES_FREE: intFrom(50, 1, 10_000).describe(
      "the most pages one audit of a Free user may scan (its `max_pages` default and ceiling)",
    ),
    AUDIT_PAGES_STARTER: intFrom(500, 1, 10_000).describe("the most pages one audit of a Starter user may scan"),
    AUDIT_PAGES_PRO: intFrom(2_000, 1, 10_000).describe("the most pages one audit of a Pro user may scan"),
    AUDIT_PAGES_AGENCY: intFrom(10_000, 1, 10_000).describe("the most pages one audit of an Agency user may scan"),
    AUDIT_SCHEDULES_FREE: intFrom(1, 0, 100_000).describe("sites a Free user may have audited on a schedule"),
    AUDIT_SCHEDULES_STARTER: intFrom(5, 0, 100_000).describe("sites a Starter user may have audited on a schedule"),
    AUDIT_SCHEDULES_PRO: intFrom(25, 0, 100_000).describe("sites a Pro user may have audited on a schedule"),
    AUDIT_SCHEDULES_AGENCY: intFrom(250, 0, 100_000).describe("sites an Agency user may have audited on a schedule"),
    COMPETITORS_FREE: intFrom(3, 0, 1_000).describe(
      "competitors a Free workspace may measure each site against in AI answers",
    ),
    COMPETITORS_STARTER: intFrom(5, 0, 1_000).describe("competitors a Starter workspace may measure each site against"),
    COMPETITORS_PRO: intFrom(10, 0, 1_000).describe("competitors a Pro workspace may measure each site against"),
    COMPETITORS_AGENCY: intFrom(25, 0, 1_000).describe("competitors an Agency workspace may measure each site against"),
    CITED_PAGES_BRAND: intFrom(5, 0, 50).describe(
      "of a completed visibility run's cited pages, the brand's most cited ones scanned (`POST /api/v1/visibility/runs/:id/cited-pages`)",
    ),
    CITED_PAGES_COMPETITOR: intFrom(10, 0, 50).describe(
      "and the most cited pages cited in answers that cited none of the brand's; each page counts as a scan against the monthly quota",
    ),
    CITED_PAGES_REUSE_HOURS: intFrom(24, 0, 720).describe(
      "a completed scan of a cited page's address by the workspace this recent is taken instead of a new one; `0`: always scan",
    ),
    AUDITS_ACTIVE_PER_USER: intFrom(3, 1, 1_000).describe(
      "audits one user may have under way at once (not yet completed, failed or cancelled)",
    ),
    KEY_CACHE_TTL_MS: intFrom(30_000, 0, 3_600_000).describe(
      "how long an API key read from Postgres is held in memory at most; changes reach the cache at once through Postgres NOTIFY, this only bounds a missed one; `0`: no cache",
    ),
    KEY_CACHE_MAX: intFrom(10_000, 1, 1_000_000).describe("API keys held in that cache"),
    MAX_KEYS_PER_USER: intFrom(10, 1, 1_000).describe("active API keys a user may hold"),
    PROGRESS_STREAMS_PER_USER: intFrom(4, 1, 100).describe(
      "progress streams (`GET /api/v1/scan/:id/events`, `GET /api/v1/audits/:id/events`) one user may hold open at once in each gateway process; one more is 429",
    ),
    PROGRESS_STREAM_LIFETIME_S: intFrom(300, 10, 3_600).describe(
      "a progress stream ends after this long and its client reconnects with Last-Event-ID, authenticated again: a session revoked meanwhile keeps no stream",
    ),
    PROGRESS_POLL_MS: intFrom(1_000, 50, 60_000).describe(
      "how often a progress stream reads its scan or audit again; a scan's last event comes as soon as its job ends",
    ),
    MCP_SSE_SESSIONS_PER_KEY: intFrom(10, 1, 1_000).describe(
      "open legacy SSE sessions of the tool server one key may hold per gateway process",
    ),
    LLM_BASE_URL: optionalText
      .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional())
      .describe(
        "OpenAI-compatible API root (`https://api.openai.com/v1`) that `aeo_generate` and `/api/v1/generate` draft with; unset: extractive only. With it, `LLM_API_KEY` and `LLM_MODEL` are required",
      ),
    LLM_API_KEY: optionalText.describe("the endpoint's key, sent in its Authorization header only, never logged"),
    LLM_MODEL: optionalText.pipe(z.string().max(200).optional()).describe("the model name sent to the endpoint"),
    LLM_TIMEOUT_MS: intFrom(20_000, 100, 120_000).describe(
      "the whole model call, connection to last byte; on failure the content is extractive and says why",
    ),
    LLM_MAX_INPUT_CHARS: intFrom(12_000, 500, 200_000).describe("characters of page text sent to the model"),
    ...JwtFields,
    ...SessionFields,
  })
  .superRefine((config, ctx) => {
    if (config.SESSION_IDLE_S > config.SESSION_MAX_S) {
      ctx.addIssue({ code: "custom", path: ["SESSION_IDLE_S"], message: "must not be more than SESSION_MAX_S" });
    }
    // Node refuses to start a server whose header limit outlasts its whole-request limit
    if (config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["HEADERS_TIMEOUT_MS"],
        message: "must not be more than REQUEST_TIMEOUT_MS",
      });
    }
    const llm = { LLM_BASE_URL: config.LLM_BASE_URL, LLM_API_KEY: config.LLM_API_KEY, LLM_MODEL: config.LLM_MODEL };
    if (Object.values(llm).some((value) => value !== undefined)) {
      for (const [name, value] of Object.entries(llm)) {
        if (value === undefined) {
          ctx.addIssue({ code: "custom", path: [name], message: "is required when any LLM_* setting is set" });
        }
      }
    }
    if (config.JWT_ALGORITHM !== "RS256") return;
    if (!config.JWT_PUBLIC_KEY) {
      ctx.addIssue({ code: "custom", path: ["JWT_PUBLIC_KEY"], message: "is required when JWT_ALGORITHM is RS256" });
      return;
    }
    try {
      const key = createPublicKey(config.JWT_PUBLIC_KEY);
      if (key.asymmetricKeyType !== "rsa") throw new Error("not RSA");
    } catch {
      ctx.addIssue({ code: "custom", path: ["JWT_PUBLIC_KEY"], message: "must be an RSA public key in PEM" });
    }
  });
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => parseConfig(Config, env, "gateway");

/** Whether plain-HTTP requests are refused: REQUIRE_HTTPS, or with `auto` whether this is production. */
export const httpsRequired = (config: Pick<Config, "REQUIRE_HTTPS" | "NODE_ENV">): boolean =>
  config.REQUIRE_HTTPS === "on" || (config.REQUIRE_HTTPS === "auto" && config.NODE_ENV === "production");

/** The accounts CLI's environment: the database, the JWT settings it signs tokens with, and where links point. */
export const AccountsConfig = z.object({
  DATABASE_URL: CommonConfig.DATABASE_URL,
  ...JwtFields,
  PUBLIC_URL: PUBLIC_URL.describe(
    "the gateway's address as users' browsers reach it: invitation and password-reset links start with it",
  ),
});
