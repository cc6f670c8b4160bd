import type { Plan } from "@scan/contract";
import { AiEngine, AppError, RecordCitationRequest } from "@scan/contract";
import type { Db } from "@scan/db";
import { citationTracks, sites as siteRows } from "@scan/records";
import { createUserService } from "../auth";
import { createKeyService, personalKeyOwner } from "../keys";
import { createKeywordService, createSiteService } from "../sites";
import { DEMO_SITES } from "./demo-data";

const DAY_MS = 24 * 3_600_000;
/** the engines are asked every tracked query this often, over the last 90 days */
const CHECK_EVERY_DAYS = 3;
const HISTORY_DAYS = 90;

/** A small deterministic generator (mulberry32): the same seed gives the same demo data. */
const random = (seed: number) => {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

export type SeedOptions = {
  email: string;
  /** the plan of a user created by the seed */
  plan: Plan;
  /** delete the user's sites (with their keywords and citation tracks) first, if they have any */
  replace: boolean;
  now?: Date;
};

export type SeedSummary = {
  user: { id: string; email: string; plan: Plan };
  sites: number;
  keywords: number;
  citations: number;
  /** a new API key for the user, shown this once */
  key: string;
};

/**
 * Fills a user (created when missing) with demo sites, tracked keywords and 90 days of
 * AI-engine citation observations, through the same services the API uses, and gives them a
 * new API key to try the API with. A user who already has sites is left alone unless
 * `replace` is set.
 */
export const seedDemoUser = async (db: Db, options: SeedOptions): Promise<SeedSummary> => {
  const now = options.now ?? new Date();
  const users = createUserService(db);
  const user = await users.byEmailOrCreate(options.email, options.plan);
  // the demo fills the user's personal workspace
  const { id: workspaceId } = await db.workspace.findUniqueOrThrow({
    where: { personalUserId: user.id },
    select: { id: true },
  });
  const owner = { workspaceId, userId: user.id };
  const existing = await db.site.count({ where: { workspaceId } });
  if (existing > 0 && !options.replace) {
    throw new AppError(
      "invalid_request",
      `${user.email} already has ${existing} sites`,
      "Pass --replace to delete them (with their keywords and citation tracks) and seed again.",
    );
  }
  if (existing > 0) await siteRows.removeAllOf(db, workspaceId);

  const sites = createSiteService({ db });
  const keywords = createKeywordService({ db, sites });
  const next = random(20_261_123);
  let keywordCount = 0;
  let citationCount = 0;

  for (const [index, demo] of DEMO_SITES.entries()) {
    const { site } = await sites.create(owner, { url: demo.url, name: demo.name });
    // sites added over the last months, oldest first, so the list's newest-first order is visible
    const createdAt = new Date(now.getTime() - (120 - index * 15) * DAY_MS);
    const scoredAt = demo.scores ? new Date(now.getTime() - demo.scores.daysAgo * DAY_MS) : null;
    await siteRows.seedDemo(db, site.id, {
      createdAt,
      // no ownership proof exists yet; the demo shows both states of the field
      isVerified: demo.isVerified,
      scores: demo.scores && scoredAt ? { ...demo.scores, at: scoredAt } : null,
    });

    for (const keyword of demo.keywords) {
      const base = {
        site_id: site.id,
        keyword: keyword.keyword,
        volume: keyword.volume,
        difficulty: keyword.difficulty,
      };
      if (keyword.previous !== null) await keywords.record(owner, { ...base, position: keyword.previous });
      await keywords.record(owner, { ...base, position: keyword.position });
      keywordCount += 1;
    }

    const rows = [];
    for (let day = HISTORY_DAYS - 1; day >= 0; day -= CHECK_EVERY_DAYS) {
      for (const query of demo.queries) {
        for (const platform of AiEngine.options) {
          // engines are checked at different hours of the day
          const checkedAt = new Date(now.getTime() - day * DAY_MS - Math.floor(next() * 20 * 3_600_000) - 60_000);
          // citations grow over the period, as a site's AEO work starts to show
          const rate = (query.citeRate[platform] ?? 0) * (0.6 + 0.4 * ((HISTORY_DAYS - day) / HISTORY_DAYS));
          const cited = next() < rate;
          const competitor = demo.competitors[Math.floor(next() * demo.competitors.length)] ?? null;
          // written as a batch, but held to the rules of POST /api/v1/citations
          const track = RecordCitationRequest.parse({
            site_id: site.id,
            platform,
            query_text: query.text,
            cited,
            citation_url: cited ? `${demo.url}${query.path}` : next() < 0.7 ? competitor : null,
            checked_at: checkedAt.toISOString(),
          });
          rows.push({
            workspaceId,
            userId: user.id,
            siteId: site.id,
            platform: track.platform,
            queryText: track.query_text,
            cited: track.cited,
            citationUrl: track.citation_url ?? null,
            checkedAt,
          });
        }
      }
    }
    citationCount += await citationTracks.insertMany(db, rows);
  }

  const keys = createKeyService({ db, maxKeysPerUser: Number.MAX_SAFE_INTEGER });
  const created = await keys.create(await personalKeyOwner(db, user), { name: "demo", default_form: null });
  return {
    user: { id: user.id, email: user.email, plan: user.plan },
    sites: DEMO_SITES.length,
    keywords: keywordCount,
    citations: citationCount,
    key: created.key,
  };
};
