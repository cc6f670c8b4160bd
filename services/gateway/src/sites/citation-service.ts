import type { DeletedRecord, PageMeta } from "@scan/contract";
import {
  AppError,
  CHECKED_AT_SKEW_MS,
  type CitationListQuery,
  type CitationView,
  DATE_RANGE_DAYS,
  offsetOf,
  pageMeta,
  type RecordCitationRequest,
} from "@scan/contract";
import type { CitationTrack, Db } from "@scan/db";
import { citationTracks, type Owner } from "@scan/records";
import type { SiteService } from "./site-service";

const DAY_MS = 24 * 3_600_000;

export const toCitationView = (track: CitationTrack): CitationView => ({
  id: track.id,
  site_id: track.siteId,
  platform: track.platform,
  query_text: track.queryText,
  cited: track.cited,
  citation_url: track.citationUrl,
  checked_at: track.checkedAt.toISOString(),
});

/**
 * Latest observation first, the id breaking ties, so pages neither repeat nor skip a track.
 * Served by (workspace_id | site_id, [platform,] checked_at, id), whichever filters are given.
 */
const ORDER = [{ checkedAt: "desc" as const }, { id: "desc" as const }];

export type CitationServiceDeps = { db: Db; sites: SiteService; now?: () => Date };

export type CitationService = {
  /** The workspace's observations, latest first, by site, engine and period (the last N days up to now). */
  list: (workspaceId: string, query: CitationListQuery) => Promise<{ citations: CitationView[]; meta: PageMeta }>;
  /** Stores one observation for one of the workspace's sites (made by `owner.userId`); `checked_at` defaults to now and may not be in the future. */
  record: (owner: Owner, input: RecordCitationRequest) => Promise<CitationView>;
  /** Corrects the wording of a track's query; what the engine answered stays as observed. */
  rename: (workspaceId: string, trackId: string, queryText: string) => Promise<CitationView>;
  /** Deletes one of the workspace's observations. */
  remove: (workspaceId: string, trackId: string) => Promise<DeletedRecord>;
};

/** A workspace's AI-engine citation tracks: list by site, engine and period, and record an observation. */
export const createCitationService = ({ db, sites, now = () => new Date() }: CitationServiceDeps): CitationService => {
  const list = async (
    workspaceId: string,
    query: CitationListQuery,
  ): Promise<{ citations: CitationView[]; meta: PageMeta }> => {
    if (query.site_id !== undefined) await sites.assertOwned(workspaceId, query.site_id);
    // the window is the last N×24 hours up to now; observations are never stored in the future
    const since = new Date(now().getTime() - DATE_RANGE_DAYS[query.date_range] * DAY_MS);
    const where = {
      workspaceId,
      checkedAt: { gte: since },
      ...(query.site_id === undefined ? {} : { siteId: query.site_id }),
      ...(query.client_id === undefined ? {} : { site: { clientId: query.client_id } }),
      ...(query.engine === "all" ? {} : { platform: query.engine }),
    };
    const [total, rows] = await db.$transaction(
      [
        db.citationTrack.count({ where }),
        db.citationTrack.findMany({ where, orderBy: ORDER, skip: offsetOf(query), take: query.limit }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { citations: rows.map(toCitationView), meta: pageMeta(query, total) };
  };

  /** Stores one observation for one of the workspace's sites; `checked_at` defaults to now and may not be in the future. */
  const record = async (owner: Owner, input: RecordCitationRequest): Promise<CitationView> => {
    const current = now();
    const checkedAt = input.checked_at === undefined ? current : new Date(input.checked_at);
    if (checkedAt.getTime() > current.getTime() + CHECKED_AT_SKEW_MS) {
      throw new AppError(
        "invalid_request",
        "checked_at: must not be in the future",
        "Send the time the answer was observed, or leave checked_at out for now.",
      );
    }
    await sites.assertOwned(owner.workspaceId, input.site_id);
    const track = await citationTracks.insert(db, {
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      siteId: input.site_id,
      platform: input.platform,
      queryText: input.query_text,
      cited: input.cited,
      citationUrl: input.citation_url ?? null,
      checkedAt,
    });
    return toCitationView(track);
  };

  const trackNotFound = (id: string) =>
    new AppError("not_found", `No citation track with id ${id}`, "Use a track id from GET /api/v1/citations.");

  /** Corrects the wording of a track's query; what the engine answered stays as observed. */
  const rename = async (workspaceId: string, trackId: string, queryText: string): Promise<CitationView> => {
    const track = await citationTracks.rename(db, workspaceId, trackId, queryText);
    if (!track) throw trackNotFound(trackId);
    return toCitationView(track);
  };

  /** Deletes one of the workspace's observations. */
  const remove = async (workspaceId: string, trackId: string): Promise<{ id: string; deleted: true }> => {
    const { removed } = await citationTracks.remove(db, workspaceId, trackId);
    if (!removed) throw trackNotFound(trackId);
    return { id: trackId, deleted: true };
  };

  return { list, record, rename, remove };
};
