import { createPublicKey } from "node:crypto";
import { CommonConfig, intFrom, OpsConfig, optionalSecret, parseConfig } from "@scan/shared/config";
import { ResponseForm } from "@scan/shared/envelope";
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

/** JWT settings for the key endpoints; the accounts CLI reads the same ones to sign tokens. */
export const JwtFields = {
  /** HS256 (shared secret, the default) or RS256 (verify with a public key; sign elsewhere) */
  JWT_ALGORITHM: z.enum(["HS256", "RS256"]).default("HS256"),
  /** HS256 secret; at least 32 characters. Unset: key management answers 503 */
  JWT_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  /** RS256 public key, PEM (`\n` escapes allowed for one-line env files) */
  JWT_PUBLIC_KEY: optionalText.transform((value) => value?.replaceAll("\\n", "\n")),
  /** checked against `iss` when set */
  JWT_ISSUER: optionalText,
  /** checked against `aud` when set */
  JWT_AUDIENCE: optionalText,
  /** seconds of clock skew allowed on exp and nbf */
  JWT_CLOCK_TOLERANCE_S: intFrom(5, 0, 300),
};

/** The gateway's whole configuration, from the environment, parsed once at start-up. */
export const Config = z
  .object({
    ...CommonConfig,
    ...OpsConfig,
    /** opens the queue dashboard at /admin/queues to this token; unset, the dashboard does not exist */
    ADMIN_TOKEN: optionalSecret(),
    PORT: intFrom(3000, 0, 65535),
    HOST: z.string().default("0.0.0.0"),
    /** how long POST /scan waits for the result before answering 202; below the 35 s client timeout of docs/spec/public-scanning-api.md §8 */
    SCAN_WAIT_MS: intFrom(30_000, 1, 34_000),
    /** the envelope form when a request has no X-Response-Form header */
    RESPONSE_FORM: ResponseForm.default("A"),
    /** largest JSON body accepted, in bytes */
    BODY_LIMIT_BYTES: intFrom(100 * 1024, 1024, 10 * 1024 * 1024),
    /** largest request head (request line and headers) accepted, in bytes; larger is 431 */
    MAX_HEADER_BYTES: intFrom(16 * 1024, 1024, 1024 * 1024),
    SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 500, 120_000),
    /** proxies in front of the gateway whose X-Forwarded-For is believed; 0: the socket's address is the client */
    TRUST_PROXY: intFrom(0, 0, 10),
    /** requests per window: anonymous per IP, otherwise per key by the owner's plan (docs/spec/public-scanning-api.md §8, Form A's table) */
    RATE_LIMIT_ANONYMOUS: intFrom(10, 1, 1_000_000_000),
    RATE_LIMIT_FREE: intFrom(10, 1, 1_000_000_000),
    RATE_LIMIT_STARTER: intFrom(100, 1, 1_000_000_000),
    RATE_LIMIT_PRO: intFrom(1_000, 1, 1_000_000_000),
    /** Agency is "unlimited with a fair-use throttle": this is the throttle */
    RATE_LIMIT_AGENCY: intFrom(10_000, 1, 1_000_000_000),
    RATE_LIMIT_WINDOW_S: intFrom(3_600, 1, 86_400),
    /** Redis key prefix of the counters; deployments sharing a Redis keep theirs apart with it */
    RATE_LIMIT_PREFIX: z.string().min(1).default("ratelimit"),
    /** scans per calendar month (UTC) per user, by plan */
    SCAN_QUOTA_FREE: quotaFrom(100),
    SCAN_QUOTA_STARTER: quotaFrom(2_000),
    SCAN_QUOTA_PRO: quotaFrom(20_000),
    SCAN_QUOTA_AGENCY: quotaFrom("unlimited"),
    /**
     * queue order by plan: each waiting scan of a caller pushes that caller's next one back by
     * the plan's weight (docs/api.md, Bulk scans: queue order)
     */
    PLAN_PRIORITY_WEIGHTS: z
      .string()
      .default("agency=1,pro=2,starter=4,free=8,anonymous=16")
      .transform((value, ctx) => {
        const weights: Record<string, number> = {};
        for (const entry of value.split(",")) {
          const match = /^\s*(agency|pro|starter|free|anonymous)\s*=\s*(\d{1,4})\s*$/.exec(entry);
          if (!match?.[1] || !match[2] || Number(match[2]) < 1) {
            ctx.addIssue({ code: "custom", message: `"${entry}" is not plan=weight (a whole number from 1)` });
            return z.NEVER;
          }
          weights[match[1]] = Number(match[2]);
        }
        const missing = ["agency", "pro", "starter", "free", "anonymous"].filter((plan) => !(plan in weights));
        if (missing.length > 0) {
          ctx.addIssue({ code: "custom", message: `needs a weight for ${missing.join(", ")}` });
          return z.NEVER;
        }
        return weights as Record<"agency" | "pro" | "starter" | "free" | "anonymous", number>;
      }),
    /** refuse waiting callers whose scan cannot finish within their budget (429 + Retry-After) */
    ADMISSION_CONTROL: z.enum(["on", "off"]).default("on"),
    /** scans one worker process runs at once (its WORKER_CONCURRENCY), for admission control */
    SCAN_SLOTS_PER_WORKER: intFrom(1, 1, 32),
    /**
     * how long an API key read from Postgres is trusted in this process; changes to keys and
     * plans reach the cache at once through Postgres NOTIFY, this only bounds a missed one. 0: off
     */
    KEY_CACHE_TTL_MS: intFrom(30_000, 0, 3_600_000),
    /** API keys held in that cache */
    KEY_CACHE_MAX: intFrom(10_000, 1, 1_000_000),
    /** active (unrevoked) keys a user may hold */
    MAX_KEYS_PER_USER: intFrom(10, 1, 1_000),
    /** open legacy SSE sessions of the tool server one key may hold per gateway process */
    MCP_SSE_SESSIONS_PER_KEY: intFrom(10, 1, 1_000),
    /** an OpenAI-compatible API root (https://api.openai.com/v1) for generate; unset: extractive only */
    LLM_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional()),
    /** the endpoint's key; sent in the Authorization header only, never logged */
    LLM_API_KEY: optionalText,
    LLM_MODEL: optionalText.pipe(z.string().max(200).optional()),
    /** the whole model call, connection to last byte */
    LLM_TIMEOUT_MS: intFrom(20_000, 100, 120_000),
    /** characters of page text sent to the model */
    LLM_MAX_INPUT_CHARS: intFrom(12_000, 500, 200_000),
    ...JwtFields,
  })
  .superRefine((config, ctx) => {
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
