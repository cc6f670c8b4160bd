import { CommonConfig, intFrom, OpsConfig, parseConfig } from "@scan/platform";
import { PlanPriorityWeights } from "@scan/queue";
import { ScanSettings } from "@scan/scanner";
import { GROUNDING_REDIRECT_HOSTS, OperatorEngineSettings, VisibilityBudgetSettings } from "@scan/visibility";
import { z } from "zod";

/** a path that may be left unset (or empty) */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** days an audit log entry is kept, 30 to 3650, or unset (empty) for the default */
const optionalDays = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.coerce.number().int().min(30).max(3650).optional(),
);

/** The worker's whole configuration, from the environment, parsed once at start-up. */
export const Config = z.object({
  ...CommonConfig,
  ...ScanSettings,
  WORKER_CONCURRENCY: intFrom(1, 1, 32).describe(
    "scans at once per process (one render per core is the measured optimum)",
  ),
  BROWSER_RECYCLE_AFTER: intFrom(200, 1, 100_000).describe("scans before the browser is replaced"),
  DNS_CACHE_TTL_MS: intFrom(60_000, 0, 3_600_000).describe(
    "how long a DNS answer is reused across scans (a failure: a tenth of it)",
  ),
  SUBRESOURCE_DNS_TIMEOUT_MS: intFrom(1_000, 50, 30_000).describe(
    "how long a subresource's host may take to resolve before the render blocks that request",
  ),
  SHUTDOWN_TIMEOUT_MS: intFrom(25_000, 1_000, 300_000).describe(
    "how long in-flight work may take at SIGTERM before it is handed back",
  ),
  REAPER_INTERVAL_MS: intFrom(5_000, 100, 3_600_000).describe(
    "how often the scans, audit pages and deliveries whose job the queue lost are looked for (one worker sweeps at a time)",
  ),
  ORPHAN_AFTER_MS: intFrom(10_000, 100, 86_400_000).describe(
    "a queued scan unchanged this long whose job the queue lost (or whose job died) is queued again from its row; a running one once it has run `SCAN_TIMEOUT_MS` + 15 s; a pending callback or alert this long past its next attempt's due time (plus `WEBHOOK_TIMEOUT_MS`), at the attempt it had reached",
  ),
  DATABASE_WAIT_MS: intFrom(120_000, 0, 600_000).describe(
    "how long a scan waits for an unreachable Postgres, per read or write, before its job fails and the reaper queues it again",
  ),
  PLAN_PRIORITY_WEIGHTS: PlanPriorityWeights.describe(
    "the gateway's queue order by plan, for the scans queued again from their rows: set it the same on both services",
  ),
  AUDIT_HOST_CONCURRENCY: intFrom(2, 1, 16).describe(
    "pages of one audited host fetched at once across every worker (a site's Crawl-delay also spaces their starts)",
  ),
  AUDIT_DISCOVERY_TIMEOUT_MS: intFrom(60_000, 1_000, 600_000).describe(
    "how long an audit's discovery (robots.txt, llms.txt, sitemaps) may take, and its report's checks of llms.txt links",
  ),
  RETENTION_DAYS_ANONYMOUS: intFrom(7, 1, 3650).describe(
    "days an anonymous scan keeps its full check list; its scores and issue counts stay",
  ),
  RETENTION_DAYS_FREE: intFrom(30, 1, 3650).describe(
    "days a Free user's (and an anonymous) scan and audit pages keep their full check lists; scores and issue counts are kept",
  ),
  RETENTION_DAYS_STARTER: intFrom(90, 1, 3650).describe("the same for a Starter user"),
  RETENTION_DAYS_PRO: intFrom(180, 1, 3650).describe("the same for a Pro user"),
  RETENTION_DAYS_AGENCY: intFrom(365, 1, 3650).describe("the same for an Agency user"),
  AUDIT_LOG_RETENTION_DAYS: intFrom(400, 30, 3650).describe(
    "days a workspace's audit log keeps an entry when its plan's own `AUDIT_LOG_RETENTION_DAYS_<PLAN>` is unset (a year and a month: last year's same month can still be read); pruned with the check lists",
  ),
  AUDIT_LOG_RETENTION_DAYS_FREE: optionalDays.describe(
    "days a Free workspace's audit log keeps an entry; unset: `AUDIT_LOG_RETENTION_DAYS`",
  ),
  AUDIT_LOG_RETENTION_DAYS_STARTER: optionalDays.describe("the same for a Starter workspace"),
  AUDIT_LOG_RETENTION_DAYS_PRO: optionalDays.describe("the same for a Pro workspace"),
  AUDIT_LOG_RETENTION_DAYS_AGENCY: optionalDays.describe("the same for an Agency workspace"),
  RETENTION_INTERVAL_MS: intFrom(600_000, 1_000, 86_400_000).describe(
    "how often old check lists are pruned (one worker at a time, in batches of 500, at most 20 batches a run)",
  ),
  DASHBOARD_DIR: optionalText.describe(
    "the web dashboard's build, whose print view the client reports mailed for schedules are printed from; unset: `services/dashboard/dist` of this checkout",
  ),
  REPORT_CHROMIUM_PATH: optionalText.describe(
    "the Chromium that prints the client reports (PDFs) mailed for schedules; unset: Debian's `chromium-headless-shell` or `chromium` where installed (none: the report mail goes without its PDF)",
  ),
  REPORT_PDF_TIMEOUT_MS: intFrom(30_000, 1_000, 120_000).describe(
    "the longest one mailed client report may take to print (then the mail goes without it)",
  ),
  ...OpsConfig,
  METRICS_PORT: intFrom(9464, 0, 65535).describe(
    "the worker's port for `/metrics`, `/healthz`, `/readyz` (`0`: any free port)",
  ),
  METRICS_HOST: z.string().default("0.0.0.0").describe("the address that port listens on"),
  WEBHOOK_ATTEMPTS: intFrom(8, 1, 25).describe("callback deliveries tried in all (1 to 25)"),
  WEBHOOK_BACKOFF_MS: intFrom(5_000, 10, 3_600_000).describe(
    "the delay before the first retry; each further one doubles it",
  ),
  WEBHOOK_TIMEOUT_MS: intFrom(10_000, 100, 60_000).describe("one callback POST, connection to status"),
  WEBHOOK_CONCURRENCY: intFrom(4, 1, 64).describe("callbacks delivered at once per worker"),
  ...OperatorEngineSettings,
  ...VisibilityBudgetSettings,
  VISIBILITY_ENGINE_CONCURRENCY: intFrom(2, 1, 32).describe(
    "visibility samples asked of one engine at once per worker process",
  ),
  VISIBILITY_WORKER_CONCURRENCY: intFrom(8, 1, 256).describe(
    "visibility samples at once per worker process, on their own queue and never in a scan's slot (they mostly wait on the engines); 8 gives 4 engines their VISIBILITY_ENGINE_CONCURRENCY of 2",
  ),
  VISIBILITY_SAMPLE_ATTEMPTS: intFrom(5, 1, 20).describe(
    "attempts at an engine per visibility sample before a rate limit, outage, time-out or malformed answer fails it",
  ),
  VISIBILITY_BACKOFF_MS: intFrom(2_000, 10, 600_000).describe(
    "the delay before a visibility sample's first retry (without a Retry-After); each further one doubles it",
  ),
  VISIBILITY_TIMEOUT_MS: intFrom(120_000, 1_000, 600_000).describe("one engine answer, search included"),
  VISIBILITY_REDIRECT_HOSTS: z
    .string()
    .default(GROUNDING_REDIRECT_HOSTS.join(","))
    .transform((value) =>
      value
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ""),
    )
    .describe(
      "comma-separated hosts (or exact `host:port`s) of the engines' redirect links (Gemini's grounding links): each cited link on one is followed once, under the address policy, and the citation stored as the page it leads to; empty: none followed",
    ),
  VISIBILITY_REDIRECT_TIMEOUT_MS: intFrom(5_000, 100, 60_000).describe(
    "how long following one cited redirect link may take before the citation is kept as the engine sent it",
  ),
  VISIBILITY_PROJECTED_INPUT_TOKENS: intFrom(20_000, 0, 10_000_000).describe(
    "input tokens a sample is projected at, with its output tokens and search units, for the budget before it is asked",
  ),
  VISIBILITY_PROJECTED_OUTPUT_TOKENS: intFrom(4_096, 0, 10_000_000).describe("output tokens a sample is projected at"),
  VISIBILITY_PROJECTED_SEARCHES: intFrom(5, 0, 100).describe("search units a sample is projected at"),
  VISIBILITY_GIVE_WAY_MS: intFrom(2_000, 0, 60_000).describe(
    "the longest one CPU or database step of a visibility sample (claim, store, queue the next) waits while interactive scans run or wait; 0: samples never wait",
  ),
  VISIBILITY_GIVE_WAY_CHECK_MS: intFrom(150, 10, 5_000).describe(
    "how long a read of the scan queue (scans waiting, scans running in other workers) is reused by the samples giving way",
  ),
  SNAPSHOT_MAX_BYTES: intFrom(4 * 1024 * 1024, 64 * 1024, 64 * 1024 * 1024).describe(
    "largest gzipped snapshot kept for fix and generate",
  ),
  SNAPSHOT_RETENTION_S: intFrom(3_600, 60, 30 * 86_400).describe(
    "how long a kept snapshot may be read before it is deleted",
  ),
});
export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv): Config => parseConfig(Config, env, "worker");
