import { z } from "zod";
import { pageParams, queryUuid } from "./list-query";
import { ScanMode } from "./scan";
import { hasNoNul, NUL_MESSAGE } from "./text";

/** Longest `q` accepted by GET /api/v1/sites. */
export const MAX_SITE_QUERY = 200;

/** GET /api/v1/sites query (docs/spec/public-scanning-api.md §4.4); unknown parameters are refused. */
export const SiteListQuery = z.strictObject({
  ...pageParams,
  /** case-insensitive substring of domain, name or url, matched literally; blank is no filter */
  q: z
    .string({ error: (issue) => (Array.isArray(issue.input) ? "must be given once" : "must be a string") })
    .trim()
    .max(MAX_SITE_QUERY, `must be at most ${MAX_SITE_QUERY} characters`)
    .refine(hasNoNul, NUL_MESSAGE)
    .transform((value) => (value === "" ? undefined : value))
    .optional(),
  /** only the sites assigned to this client of the workspace */
  client_id: queryUuid(),
});
export type SiteListQuery = z.infer<typeof SiteListQuery>;

/** GET /api/v1/sites/:id */
export const SiteIdParam = z.object({ id: z.uuid({ error: "id must be a UUID" }).transform((id) => id.toLowerCase()) });

/** POST /api/v1/sites body. `url` is normalised per form, then reduced to its origin. */
export const CreateSiteRequest = z.strictObject({
  url: z.string({ error: "is required and must be a string" }),
  name: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be blank")
    .max(100, "must be at most 100 characters")
    .refine(hasNoNul, NUL_MESSAGE)
    .optional(),
});
export type CreateSiteRequest = z.infer<typeof CreateSiteRequest>;

/**
 * PATCH /api/v1/sites/:id body: a new name, the client it is assigned to (null: none), or both;
 * the origin stays (another origin is another site).
 */
export const RenameSiteRequest = z
  .strictObject({
    name: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be blank")
      .max(100, "must be at most 100 characters")
      .refine(hasNoNul, NUL_MESSAGE)
      .optional(),
    client_id: z
      .uuid({ error: "must be a client's id (a UUID) or null" })
      .transform((id) => id.toLowerCase())
      .nullable()
      .optional(),
  })
  .refine((body) => body.name !== undefined || body.client_id !== undefined, "give name, client_id or both");
export type RenameSiteRequest = z.infer<typeof RenameSiteRequest>;

/** What a DELETE of a site, keyword or citation track answers. */
export const DeletedRecord = z.object({ id: z.uuid(), deleted: z.literal(true) });
export type DeletedRecord = z.infer<typeof DeletedRecord>;

/** Where a site lives: one site per origin and user. */
export type SiteOrigin = { url: string; domain: string };

/**
 * The site an http(s) URL belongs to: its origin (`scheme://host[:port]`, default port
 * dropped, host lower-cased and IDNA-encoded by the URL parser) and the origin's host name.
 * `http://` and `https://`, and `www.` and the bare domain, are different origins and so
 * different sites, as browsers and search engines treat them.
 */
export const siteOriginOf = (url: string): SiteOrigin => {
  const parsed = new URL(url);
  return { url: parsed.origin, domain: parsed.hostname };
};

/** Area scores of a site's latest scan (docs/spec/public-scanning-api.md §2.4). */
export const SiteScores = z.object({
  seo: z.int().min(0).max(100),
  aeo: z.int().min(0).max(100),
  geo: z.int().min(0).max(100),
});

/** Which scan `latest_scores` come from. */
export const SiteScoresScan = z.object({
  /** null for scores that no scan of this service recorded (seeded demo data) */
  id: z.uuid().nullable(),
  mode: ScanMode,
  /** true for a quick scan: 20 of 57 checks, not comparable with a full scan's scores */
  partial: z.boolean(),
  scanned_at: z.iso.datetime(),
});

/** A site as the API shows it (docs/spec/public-scanning-api.md §2.4, plus `latest_scores_scan` and `created_at`). */
export const SiteView = z.object({
  id: z.uuid(),
  url: z.string(),
  domain: z.string(),
  name: z.string(),
  is_verified: z.boolean(),
  /** null until a scan of the site made with one of the owner's keys has completed */
  latest_scores: SiteScores.nullable(),
  latest_scores_scan: SiteScoresScan.nullable(),
  /** when the latest scores are a full audit's site scores: which audit; else null */
  latest_scores_audit: z.object({ id: z.uuid(), completed_at: z.iso.datetime() }).nullable(),
  /** when the latest completed scan of either mode finished; null before the first */
  last_scan_at: z.iso.datetime().nullable(),
  /** the client of the workspace the site is assigned to; null: none */
  client_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
});
export type SiteView = z.infer<typeof SiteView>;
