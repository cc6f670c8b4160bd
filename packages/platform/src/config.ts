import { z } from "zod";

/** An integer setting with a default and the range it must fall in. */
export const intFrom = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const LogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");

/** Settings every service reads the same way. */
export const CommonConfig = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .describe("PostgreSQL URL"),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .default("redis://127.0.0.1:6379")
    .describe("Redis for the queue"),
  QUEUE_PREFIX: z.string().min(1).default("bull").describe("BullMQ key prefix (separate prefixes are separate queues)"),
  SCAN_ALLOWLIST: z
    .string()
    .default("")
    .describe("comma-separated exact `host:port` pairs that may be scanned although private"),
  SCAN_PORTS: z
    .string()
    .regex(/^\s*(\*|\d{1,5}(\s*,\s*\d{1,5})*)\s*$/, "must be comma-separated port numbers or *")
    .default("80,443,8080,8443")
    .describe("ports a target, redirect hop or subresource may use (`*`: any); allowlisted pairs aside"),
  LOG_LEVEL: LogLevel.describe("pino level"),
};

/** Parses a service's environment once; a bad variable stops start-up with a message naming it. */
export const parseConfig = <T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv, service: string): z.infer<T> => {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n  ");
    throw new Error(`invalid ${service} configuration:\n  ${problems}`);
  }
  return parsed.data;
};

/**
 * A secret that may be left out: unset or empty (as compose writes `${X:-}`) means the feature
 * it guards is off; when set it must be long enough that guessing it is hopeless.
 */
export const optionalSecret = (minLength = 16) =>
  z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().min(minLength, `must be at least ${minLength} characters (e.g. openssl rand -hex 32)`).optional(),
  );

/** Operations settings both services read the same way. */
export const OpsConfig = {
  METRICS_TOKEN: optionalSecret().describe(
    "when set (16+ characters), `/metrics` wants `Authorization: Bearer <token>`; unset, `/metrics` is open",
  ),
  WEBHOOK_SECRET: optionalSecret().describe(
    "signs callbacks (16+ characters, the same on both services); unset, `callback_url` is refused with 400",
  ),
  SMTP_URL: z
    .preprocess(
      (value) => (value === "" ? undefined : value),
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example:587")
        .optional(),
    )
    .describe(
      "the SMTP server regression alerts are mailed through (`smtp://user:password@host:587`, STARTTLS when offered; `smtps://` for TLS from the start; the same on both services; never logged); unset, `alert_emails` is refused with 400",
    ),
  ALERT_FROM: z
    .string()
    .min(3)
    .default("SEO scanner alerts <alerts@localhost>")
    .describe("the From of alert mails: an address the SMTP server may send as, with a display name"),
  DASHBOARD_URL: z
    .url({ error: "must be an absolute URL, e.g. https://scan.example/app" })
    .default("http://localhost:3000/app")
    .describe("the dashboard's public address: alert mails and Slack messages link to the audit under it"),
  SITE_SECRETS_KEY: z
    .preprocess((value) => (value === "" ? undefined : value), z.string().optional())
    .refine((value) => value === undefined || Buffer.from(value.trim(), "base64").length === 32, {
      message: "must be 32 bytes in base64 (openssl rand -base64 32)",
    })
    .describe(
      "seals the credentials of sites behind a login (AES-256-GCM; 32 bytes in base64, the same on both services); unset, the credentials endpoints answer 503 and a scan of a site that has credentials fails saying so",
    ),
  READY_TIMEOUT_MS: intFrom(1_000, 50, 30_000).describe(
    "each dependency probe of `/readyz` (and the gateway's queue-depth read for `/metrics`) gives up after this",
  ),
};
