import { z } from "zod";
import { AlertDeliveryView } from "./audit-alerts";
import { AiEngine } from "./citation";
import { pageParams, queryFilter } from "./list-query";
import { hasNoNul, NUL_MESSAGE } from "./text";

/**
 * What a site's AI visibility is tracked with (docs/visibility.md, Tracking configuration): its
 * profile (the brand's names and domains, how many samples of each prompt, which engines), the
 * prompts asked, the competitors measured against, and the workspace's own engine keys.
 */

/** samples of each prompt on each engine in one run: answers vary from one asking to the next */
export const DEFAULT_SAMPLES_PER_PROMPT = 3;
export const MAX_SAMPLES_PER_PROMPT = 10;
export const MAX_PROMPT_CHARS = 500;
export const MAX_BRAND_NAMES = 20;
export const MAX_BRAND_DOMAINS = 20;
export const MAX_PROMPT_TAGS = 20;
/** rows one CSV import may hold */
export const MAX_IMPORT_ROWS = 1_000;

const text = (what: { max: number }) =>
  z
    .string({ error: "must be a string" })
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(
      z
        .string()
        .min(1, "must not be blank")
        .max(what.max, `must be at most ${what.max} characters`)
        .refine(hasNoNul, NUL_MESSAGE),
    );

/** A list whose entries are compared case-insensitively: a repeat is refused, not silently dropped. */
const distinctList = <T extends z.ZodType<string>>(item: T, max: number, what: string) =>
  z
    .array(item, { error: `must be an array of ${what}` })
    .max(max, `must hold at most ${max} ${what}`)
    .refine((values) => new Set(values.map((value) => value.toLowerCase())).size === values.length, {
      message: `must not repeat an entry (${what} are compared ignoring case)`,
    });

/**
 * A name a brand or a competitor goes by, as an answer would write it: trimmed, inner whitespace
 * collapsed, case kept (mentions are matched ignoring case).
 */
export const BrandName = text({ max: 100 });

/** Why a host is not a domain a brand can own, or null. */
const domainProblem = (host: string): string | null => {
  if (host.length > 253) return "must be at most 253 characters";
  if (/^\[.*\]$/.test(host) || /^[\d.]+$/.test(host)) return "must be a domain name, not an IP address";
  if (!host.includes(".")) return "must be a full domain name such as example.com";
  if (host.split(".").some((label) => label.length === 0 || label.length > 63))
    return "has an empty or over-long label";
  return null;
};

/**
 * A domain an answer may cite a brand by: a host name (`example.com`, `shop.example.com`), or
 * an http(s) URL whose host is taken. Stored lower-cased and IDNA-encoded as the URL parser
 * writes hosts, without a trailing dot; a path, port or credentials are refused, since a domain
 * covers the whole host. Whether the host is public is checked by the service's address policy.
 */
export const BrandDomain = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be blank")
  .max(300, "must be at most 300 characters")
  .transform((value, ctx) => {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      ctx.addIssue({ code: "custom", message: `"${value.slice(0, 80)}" is not a domain name` });
      return z.NEVER;
    }
    const extra =
      url.protocol !== "http:" && url.protocol !== "https:"
        ? "must be a host name or an http(s) URL"
        : url.username !== "" || url.password !== ""
          ? "must not carry credentials"
          : url.port !== ""
            ? "must not name a port: a domain covers the whole host"
            : url.pathname !== "/" || url.search !== "" || url.hash !== ""
              ? "must be a host name without a path: a domain covers the whole host"
              : null;
    const host = url.hostname.replace(/\.$/, "");
    const problem = extra ?? domainProblem(host);
    if (problem) {
      ctx.addIssue({ code: "custom", message: `"${value.slice(0, 80)}" ${problem}` });
      return z.NEVER;
    }
    return host;
  });

const samples = z
  .int({ error: `must be an integer from 1 to ${MAX_SAMPLES_PER_PROMPT}` })
  .min(1, `must be an integer from 1 to ${MAX_SAMPLES_PER_PROMPT}`)
  .max(MAX_SAMPLES_PER_PROMPT, `must be an integer from 1 to ${MAX_SAMPLES_PER_PROMPT}`);

const engineList = z
  .array(z.enum(AiEngine.options, { error: `must be one of ${AiEngine.options.join(", ")}` }), {
    error: "must be an array of engines",
  })
  .min(1, "must name at least one engine")
  .refine((engines) => new Set(engines).size === engines.length, { message: "must not repeat an engine" })
  // one order however they were sent: the stored profile compares and reads the same
  .transform((engines) => AiEngine.options.filter((engine) => engines.includes(engine)));

/**
 * PUT /api/v1/sites/:id/visibility body: the site's profile, whole. Left out: the domains are
 * none, three samples, every engine.
 */
export const VisibilityProfileRequest = z.strictObject({
  brand_names: distinctList(BrandName, MAX_BRAND_NAMES, "names").refine((names) => names.length > 0, {
    message: "must name the brand at least once",
  }),
  brand_domains: distinctList(BrandDomain, MAX_BRAND_DOMAINS, "domains").default([]),
  samples_per_prompt: samples.default(DEFAULT_SAMPLES_PER_PROMPT),
  engines: engineList.default([...AiEngine.options]),
});
export type VisibilityProfileRequest = z.infer<typeof VisibilityProfileRequest>;

/** A site's visibility profile; before one is set, what the site itself says (`configured: false`). */
export const VisibilityProfileView = z.object({
  site_id: z.uuid(),
  /** the names an answer mentions the brand by; the first is its main name */
  brand_names: z.array(z.string()),
  /** the hosts whose pages count as the brand's own when an answer cites them */
  brand_domains: z.array(z.string()),
  samples_per_prompt: z.int(),
  engines: z.array(AiEngine),
  /** false until a profile is set: the answer is the defaults drawn from the site */
  configured: z.boolean(),
  /**
   * the engines the workspace has its own key for (`PUT /api/v1/workspaces/{id}/engine-keys/{engine}`);
   * the others are asked with the service's keys, where the operator has set them
   */
  workspace_keys: z.array(AiEngine),
  prompt_count: z.int(),
  competitor_count: z.int(),
  updated_at: z.iso.datetime().nullable(),
});
export type VisibilityProfileView = z.infer<typeof VisibilityProfileView>;

/**
 * A language tag (BCP 47: `en`, `en-GB`, `pt-BR`, `zh-Hant-TW`), stored in its canonical case
 * (`en-gb` is `en-GB`).
 */
export const LocaleTag = z
  .string({ error: "must be a string" })
  .trim()
  .max(35, "must be at most 35 characters")
  .transform((value, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(value);
      // the language is an ISO 639 code (2 or 3 letters): BCP 47's longer language subtags are
      // reserved or unused, and a word such as "english" is well-formed but names no language
      if (canonical && /^[a-z]{2,3}(-|$)/.test(canonical)) return canonical;
    } catch {
      // RangeError: not a well-formed tag
    }
    ctx.addIssue({ code: "custom", message: `"${value.slice(0, 40)}" is not a BCP 47 language tag such as en-US` });
    return z.NEVER;
  });

/** The text of a prompt as asked: trimmed, inner whitespace collapsed, case and punctuation kept. */
export const PromptText = text({ max: MAX_PROMPT_CHARS });

/**
 * One prompt per wording and site: the key a prompt's text is unique by, ignoring case, Unicode
 * compatibility forms, whitespace and closing punctuation ("Best CRM?" and "best crm" are one).
 */
export const promptKeyOf = (value: string): string =>
  value
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s?!.。？！]+$/u, "");

export const PromptTopic = text({ max: 100 });
/** A tag groups prompts: trimmed, lower-cased, at most 50 characters. */
export const PromptTag = text({ max: 50 }).transform((value) => value.toLowerCase());
const tagList = distinctList(PromptTag, MAX_PROMPT_TAGS, "tags");

/** POST /api/v1/sites/:id/prompts body. */
export const CreatePromptRequest = z.strictObject({
  text: PromptText,
  topic: PromptTopic.nullable().optional(),
  tags: tagList.optional(),
  locale: LocaleTag.nullable().optional(),
});
export type CreatePromptRequest = z.infer<typeof CreatePromptRequest>;

/** PATCH /api/v1/sites/:id/prompts/:promptId body: the fields sent change; `null` clears topic or locale. */
export const UpdatePromptRequest = z
  .strictObject({
    text: PromptText.optional(),
    topic: PromptTopic.nullable().optional(),
    tags: tagList.optional(),
    locale: LocaleTag.nullable().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, {
    message: "must change at least one of text, topic, tags, locale",
  });
export type UpdatePromptRequest = z.infer<typeof UpdatePromptRequest>;

export const PromptView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  text: z.string(),
  topic: z.string().nullable(),
  tags: z.array(z.string()),
  locale: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type PromptView = z.infer<typeof PromptView>;

const queryText = (max: number) =>
  z
    .string({ error: (issue) => (Array.isArray(issue.input) ? "must be given once" : "must be a string") })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine(hasNoNul, NUL_MESSAGE)
    .transform((value) => (value === "" ? undefined : value))
    .optional();

/** GET /api/v1/sites/:id/prompts query; unknown parameters are refused. */
export const PromptListQuery = z.strictObject({
  ...pageParams,
  /** case-insensitive substring of the text, matched literally */
  q: queryText(200),
  /** the exact topic, ignoring case */
  topic: queryText(100),
  /** prompts carrying this tag */
  tag: queryText(50).transform((value) => value?.toLowerCase()),
  /** the exact language tag, in any case */
  locale: queryText(35).pipe(LocaleTag.optional()),
});
export type PromptListQuery = z.infer<typeof PromptListQuery>;

const uuidParam = (name: string) =>
  z.uuid({ error: `${name} must be a UUID` }).transform((value) => value.toLowerCase());

/** /api/v1/sites/:id/prompts/:promptId */
export const PromptIdParam = z.object({ id: uuidParam("id"), promptId: uuidParam("promptId") });

/** A row of a CSV import skipped because its prompt is tracked already. */
export const SkippedImportRow = z.object({
  /** the row's number in the file, the header being row 1 (as a spreadsheet numbers it) */
  row: z.int(),
  text: z.string(),
  /** `tracked`: the site tracks this prompt already; `repeated`: an earlier row of the file holds it */
  reason: z.enum(["tracked", "repeated"]),
  /** the prompt it is the same as: tracked before, or added by this import from an earlier row */
  prompt_id: z.uuid(),
});

/** What POST /api/v1/sites/:id/prompts/import answers: the prompts added, and the rows skipped as already there. */
export const PromptImportResult = z.object({
  /** data rows read (the header not counted) */
  rows: z.int(),
  imported: z.int(),
  skipped: z.array(SkippedImportRow),
  prompts: z.array(PromptView),
});
export type PromptImportResult = z.infer<typeof PromptImportResult>;

/** POST /api/v1/sites/:id/competitors body. */
export const CreateCompetitorRequest = z.strictObject({
  name: BrandName,
  /** other names an answer may use for it */
  aliases: distinctList(BrandName, MAX_BRAND_NAMES, "aliases").default([]),
  domains: distinctList(BrandDomain, MAX_BRAND_DOMAINS, "domains").default([]),
});
export type CreateCompetitorRequest = z.infer<typeof CreateCompetitorRequest>;

/** PATCH /api/v1/sites/:id/competitors/:competitorId body: the fields sent are replaced. */
export const UpdateCompetitorRequest = z
  .strictObject({
    name: BrandName.optional(),
    aliases: distinctList(BrandName, MAX_BRAND_NAMES, "aliases").optional(),
    domains: distinctList(BrandDomain, MAX_BRAND_DOMAINS, "domains").optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: "must change at least one of name, aliases, domains" });
export type UpdateCompetitorRequest = z.infer<typeof UpdateCompetitorRequest>;

export const CompetitorView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  name: z.string(),
  aliases: z.array(z.string()),
  domains: z.array(z.string()),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type CompetitorView = z.infer<typeof CompetitorView>;

/** GET /api/v1/sites/:id/competitors query. */
export const CompetitorListQuery = z.strictObject({ ...pageParams, q: queryText(100) });
export type CompetitorListQuery = z.infer<typeof CompetitorListQuery>;

/** /api/v1/sites/:id/competitors/:competitorId */
export const CompetitorIdParam = z.object({ id: uuidParam("id"), competitorId: uuidParam("competitorId") });

/** /api/v1/workspaces/:id/engine-keys/:engine */
export const EngineKeyParam = z.object({
  id: uuidParam("id"),
  engine: z.enum(AiEngine.options, { error: `engine must be one of ${AiEngine.options.join(", ")}` }),
});

/**
 * PUT /api/v1/workspaces/:id/engine-keys/:engine body: the workspace's key for one engine's API,
 * and the model to ask instead of the service's default. The key is sealed before it is stored
 * and never shown again.
 */
export const SetEngineKeyRequest = z.strictObject({
  api_key: z
    .string({ error: "is required and must be a string" })
    .trim()
    .min(16, "must be at least 16 characters: paste the whole key")
    .max(512, "must be at most 512 characters")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces, as the vendors issue keys"),
  model: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be blank")
    .max(100, "must be at most 100 characters")
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/, "must be a model name such as gpt-4.1 or claude-sonnet-4-5")
    .nullable()
    .optional(),
});
export type SetEngineKeyRequest = z.infer<typeof SetEngineKeyRequest>;

/** An engine key as the API shows it: never the key, only its last four characters. */
export const EngineKeyView = z.object({
  engine: AiEngine,
  /** the model asked; null: the service's default for the engine */
  model: z.string().nullable(),
  /** the key's last four characters, to tell keys apart */
  key_last4: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type EngineKeyView = z.infer<typeof EngineKeyView>;

/** What DELETE /api/v1/workspaces/:id/engine-keys/:engine answers. */
export const DeletedEngineKey = z.object({ engine: AiEngine, deleted: z.literal(true) });
export type DeletedEngineKey = z.infer<typeof DeletedEngineKey>;

/** MCP: aeo_visibility_profile, aeo_list_prompts, aeo_list_competitors name a site by id. */
export const SiteToolInput = z.strictObject({ site_id: z.uuid({ error: "must be a site id (a UUID)" }) });
export const ListToolInput = z.strictObject({
  site_id: z.uuid({ error: "must be a site id (a UUID)" }),
  page: z.int().min(1).max(1_000_000).optional(),
  limit: z.int().min(1).max(100).optional(),
});
export const AddPromptToolInput = z.strictObject({
  site_id: z.uuid({ error: "must be a site id (a UUID)" }),
  text: PromptText,
  topic: PromptTopic.optional(),
  tags: tagList.optional(),
  locale: LocaleTag.optional(),
});
export const RemovePromptToolInput = z.strictObject({
  site_id: z.uuid({ error: "must be a site id (a UUID)" }),
  prompt_id: z.uuid({ error: "must be a prompt id (a UUID)" }),
});
export const AddCompetitorToolInput = z.strictObject({
  site_id: z.uuid({ error: "must be a site id (a UUID)" }),
  name: BrandName,
  aliases: distinctList(BrandName, MAX_BRAND_NAMES, "aliases").optional(),
  domains: distinctList(BrandDomain, MAX_BRAND_DOMAINS, "domains").optional(),
});
export const RemoveCompetitorToolInput = z.strictObject({
  site_id: z.uuid({ error: "must be a site id (a UUID)" }),
  competitor_id: z.uuid({ error: "must be a competitor id (a UUID)" }),
});
/** The lists the list tools answer: one page. */
export const PromptPage = z.object({
  prompts: z.array(PromptView),
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  has_more: z.boolean(),
});
export const CompetitorPage = z.object({
  competitors: z.array(CompetitorView),
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  has_more: z.boolean(),
});

// runs ----------------------------------------------------------------------------------------

export const VisibilityRunStatus = z.enum(["queued", "running", "completed", "failed", "cancelled"]);
export type VisibilityRunStatus = z.infer<typeof VisibilityRunStatus>;
export const VisibilitySampleStatus = z.enum(["queued", "running", "completed", "failed", "cancelled"]);

/** POST /api/v1/sites/:id/visibility/runs body: empty, or an empty object (the profile says what is asked). */
export const StartRunRequest = z.strictObject({}).default({});
export type StartRunRequest = z.infer<typeof StartRunRequest>;

/** /api/v1/visibility/runs/:id */
export const RunIdParam = z.object({ id: uuidParam("id") });

/** GET /api/v1/visibility/runs/:id query: the run as JSON, or its client report as a PDF. */
export const RunReadQuery = z.strictObject({
  format: z.enum(["json", "pdf"], { error: "format must be json or pdf" }).optional(),
});
export type RunReadQuery = z.infer<typeof RunReadQuery>;

/** GET /api/v1/sites/:id/visibility/runs query. */
export const RunListQuery = z.strictObject({ ...pageParams });
export type RunListQuery = z.infer<typeof RunListQuery>;

/** GET /api/v1/visibility/runs/:id/samples query. */
export const SampleListQuery = z.strictObject({
  ...pageParams,
  engine: z.enum(AiEngine.options, { error: `engine must be one of ${AiEngine.options.join(", ")}` }).optional(),
  prompt_id: uuidParam("prompt_id").optional(),
  status: VisibilitySampleStatus.optional(),
  /** csv: every sample the filters keep, as a file; absent: chosen by Accept (JSON unless text/csv is preferred) */
  format: queryFilter(["json", "csv"] as const),
});
export type SampleListQuery = z.infer<typeof SampleListQuery>;

/** A rate with its Wilson 95 % interval. */
export const MeasuredRate = z.object({
  successes: z.int(),
  n: z.int(),
  /** successes / n; null when n is 0 */
  rate: z.number().nullable(),
  low: z.number(),
  high: z.number(),
});

const RateSet = z.object({
  samples: z.int(),
  mention_rate: MeasuredRate,
  citation_rate: MeasuredRate,
  /** the brand's mean order among the companies named, where named; null when never named */
  average_position: z.number().nullable(),
});

const CitedCount = z.object({ key: z.string(), count: z.int() });

const VoiceShareView = z.object({ name: z.string(), mentions: z.int(), share: z.number().nullable() });

/** A rate of this run against the site's previous completed run: Fisher's exact test, two-sided, at alpha 0.05. */
const RateComparison = z.object({
  previous: MeasuredRate,
  current: MeasuredRate,
  p_value: z.number(),
  /** p < 0.05: a change unlikely to be noise */
  changed: z.boolean(),
  direction: z.enum(["up", "down", "flat"]),
});

export const RunMeasures = z.object({
  engines: z.array(
    RateSet.extend({
      engine: AiEngine,
      share_of_voice: z.array(VoiceShareView),
      top_domains: z.array(CitedCount),
      top_pages: z.array(CitedCount),
    }),
  ),
  prompts: z.array(RateSet.extend({ prompt_id: z.uuid(), text: z.string(), engine: AiEngine })),
  share_of_voice: z.array(VoiceShareView),
  top_domains: z.array(CitedCount),
  top_pages: z.array(CitedCount),
  /** null without a previous completed run of the site */
  versus_previous: z
    .object({
      run_id: z.uuid(),
      engines: z.array(z.object({ engine: AiEngine, mention: RateComparison, citation: RateComparison })),
    })
    .nullable(),
});
export type RunMeasures = z.infer<typeof RunMeasures>;

export const VisibilityRunView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  status: VisibilityRunStatus,
  engines: z.array(AiEngine),
  samples_per_prompt: z.int(),
  progress: z.object({ planned: z.int(), done: z.int(), failed: z.int() }),
  tokens: z.int(),
  cost_usd: z.number(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.iso.datetime(),
  started_at: z.iso.datetime().nullable(),
  completed_at: z.iso.datetime().nullable(),
  /** on GET /api/v1/visibility/runs/:id only: the measures over the samples stored so far */
  measures: RunMeasures.optional(),
});
export type VisibilityRunView = z.infer<typeof VisibilityRunView>;

export const VisibilitySampleView = z.object({
  id: z.uuid(),
  run_id: z.uuid(),
  prompt_id: z.uuid(),
  prompt: z.string(),
  engine: AiEngine,
  sample_index: z.int(),
  status: VisibilitySampleStatus,
  attempts: z.int(),
  answer: z.string().nullable(),
  model: z.string().nullable(),
  citations: z.array(
    z.object({ url: z.string(), domain: z.string(), position: z.int(), title: z.string().nullable() }),
  ),
  search_queries: z.array(z.string()),
  mentions: z.array(z.object({ entity: z.string(), kind: z.enum(["brand", "competitor"]), position: z.int() })),
  brand_mentioned: z.boolean().nullable(),
  brand_cited: z.boolean().nullable(),
  cited_page: z.string().nullable(),
  tokens: z.int(),
  cost_usd: z.number(),
  error_kind: z.string().nullable(),
  finished_at: z.iso.datetime().nullable(),
});
export type VisibilitySampleView = z.infer<typeof VisibilitySampleView>;

/** MCP: aeo_visibility_run reads a run by id. */
export const RunToolInput = z.strictObject({ run_id: z.uuid({ error: "must be a run id (a UUID)" }) });
/** MCP: aeo_visibility_samples reads a page of a run's answers, by engine and prompt if asked. */
export const SamplesToolInput = z.strictObject({
  run_id: z.uuid({ error: "must be a run id (a UUID)" }),
  engine: z.enum(AiEngine.options, { error: `engine must be one of ${AiEngine.options.join(", ")}` }).optional(),
  prompt_id: z.uuid({ error: "must be a prompt id (a UUID)" }).optional(),
  page: z.int().min(1).max(1_000_000).optional(),
  limit: z.int().min(1).max(100).optional(),
});
/** What aeo_visibility_samples answers: one page. */
export const SamplePage = z.object({
  samples: z.array(VisibilitySampleView),
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  has_more: z.boolean(),
});
/** One rate of one engine that changed between two completed runs, as a visibility alert names it. */
export const VisibilityRateChange = z.object({
  engine: AiEngine,
  /** the brand named in the answers (`mention`) or the site's domains cited (`citation`) */
  rate: z.enum(["mention", "citation"]),
  previous: MeasuredRate,
  current: MeasuredRate,
  /** Fisher's exact test, two-sided; below 0.05 */
  p_value: z.number(),
  direction: z.enum(["up", "down"]),
});
export type VisibilityRateChange = z.infer<typeof VisibilityRateChange>;

/**
 * The body of a visibility alert, POSTed signed to the site's alert URL: a completed run whose
 * mention or citation rate changed against the previous completed run by the test, never noise.
 */
export const VisibilityAlert = z.object({
  event: z.literal("visibility.changed"),
  alert_id: z.uuid(),
  site_id: z.uuid(),
  site_url: z.string(),
  run_id: z.uuid(),
  previous_run_id: z.uuid(),
  /** the site's visibility page in the dashboard (DASHBOARD_URL), with the run named */
  dashboard_url: z.string(),
  /** the run over the API: its measures and `versus_previous` */
  run_api_path: z.string(),
  changes: z.array(VisibilityRateChange).min(1),
  detected_at: z.iso.datetime(),
});
export type VisibilityAlert = z.infer<typeof VisibilityAlert>;

/**
 * A stored visibility alert as GET /api/v1/sites/:id/visibility/alerts shows it: the run, the
 * run it was compared with, the changes the test called real, and how its delivery went (where it
 * was sent shown as for regression alerts: a webhook's origin, a mail's addresses, Slack masked).
 */
export const VisibilityAlertView = z.object({
  id: z.uuid(),
  site_id: z.uuid(),
  /** the completed run whose rate changed */
  run_id: z.uuid(),
  /** the site's previous completed run, compared against */
  previous_run_id: z.uuid(),
  changes: z.array(VisibilityRateChange).min(1),
  created_at: z.iso.datetime(),
  delivery: AlertDeliveryView,
});
export type VisibilityAlertView = z.infer<typeof VisibilityAlertView>;
// cited pages ---------------------------------------------------------------------------------

/** Where a cited page stands: not yet sent to be scanned, refused by the address policy, or its scan's status. */
export const CitedPageState = z.enum(["not_started", "refused", "queued", "running", "completed", "failed", "missing"]);

/** The scan that judged a cited page. */
export const CitedPageScan = z.object({
  id: z.uuid(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  /** true: a completed scan of the same address within the reuse window was taken */
  reused: z.boolean(),
  mode: z.enum(["quick", "full"]),
  seo: z.int().nullable(),
  aeo: z.int().nullable(),
  geo: z.int().nullable(),
  overall: z.int().nullable(),
  grade: z.string().nullable(),
  completed_at: z.iso.datetime().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export const CitedPageView = z.object({
  url: z.string(),
  domain: z.string(),
  side: z.enum(["brand", "competitor"]),
  /** the tracked competitor whose domain the page is on; null for a page of no tracked company */
  competitor: z.string().nullable(),
  /** answers of the run citing it */
  citations: z.int(),
  state: CitedPageState,
  /** why the address policy refused it (state `refused`); it was not scanned */
  refused: z.string().nullable(),
  scan: CitedPageScan.nullable(),
});
export type CitedPageView = z.infer<typeof CitedPageView>;

/** A check the cited page passes and the brand's page fails (or only warns on). */
export const CheckGapView = z.object({
  check: z.string(),
  title: z.string(),
  category: z.string(),
  severity: z.string(),
  yours: z.enum(["fail", "warn"]),
});

export const CitedPromptView = z.object({
  prompt_id: z.uuid(),
  prompt: z.string(),
  /** the brand's pages the prompt's answers cited, most cited first */
  brand_pages: z.array(CitedPageView.extend({ prompt_citations: z.int() })),
  /** pages cited in the prompt's answers that cited none of the brand's */
  competitor_pages: z.array(
    CitedPageView.extend({
      prompt_citations: z.int(),
      /** the brand page compared with: the prompt's most cited, else the run's; null when the run cited none */
      compared_with: z.string().nullable(),
      /** the checks this page passes and `compared_with` fails; null until both scans completed */
      lacks: z.array(CheckGapView).nullable(),
    }),
  ),
});

export const CitedPagesView = z.object({
  run_id: z.uuid(),
  site_id: z.uuid(),
  /** false until the pages were sent to be scanned (POST …/cited-pages) */
  started: z.boolean(),
  started_at: z.iso.datetime().nullable(),
  bounds: z.object({ brand_pages: z.int(), competitor_pages: z.int(), reuse_within_hours: z.int() }),
  counts: z.object({
    pages: z.int(),
    completed: z.int(),
    pending: z.int(),
    failed: z.int(),
    refused: z.int(),
    reused: z.int(),
  }),
  pages: z.array(CitedPageView),
  prompts: z.array(CitedPromptView),
});
export type CitedPagesView = z.infer<typeof CitedPagesView>;
