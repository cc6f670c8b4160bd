import { keywordTrend, type SearchQueryRow } from "@scan/contract";
import type { Keyword } from "@scan/db";
import type { DbClient } from "./transitions";

/**
 * Stores a site's Search Console queries as its keywords, in the caller's transaction (under the
 * workspace's keyword lock): a query the site does not track yet becomes a keyword (`trend: new`;
 * its impressions stand for its volume, which Search Console does not report, and its difficulty,
 * which it has no measure of, is 0); a query tracked already gets its new position, the stored one
 * moving to `previous_position` and the trend set from the two, as a recorded position does, and
 * keeps its volume and difficulty. Clicks and impressions are the import's, on both.
 */
export const importQueries = async (
  tx: DbClient,
  owner: { workspaceId: string; userId: string },
  siteId: string,
  queries: readonly SearchQueryRow[],
): Promise<{ created: Keyword[]; updated: Keyword[] }> => {
  const existing = await tx.keyword.findMany({
    where: { siteId, keyword: { in: queries.map((query) => query.keyword) } },
  });
  const byWords = new Map(existing.map((keyword) => [keyword.keyword, keyword]));
  const fresh = queries.filter((query) => !byWords.has(query.keyword));
  const created =
    fresh.length === 0
      ? []
      : await tx.keyword.createManyAndReturn({
          data: fresh.map((query) => ({
            workspaceId: owner.workspaceId,
            userId: owner.userId,
            siteId,
            keyword: query.keyword,
            position: query.position,
            volume: query.impressions,
            difficulty: 0,
            trend: keywordTrend(null, query.position),
            clicks: query.clicks,
            impressions: query.impressions,
          })),
        });
  const updated: Keyword[] = [];
  for (const query of queries) {
    const before = byWords.get(query.keyword);
    if (!before) continue;
    updated.push(
      await tx.keyword.update({
        where: { id: before.id },
        data: {
          position: query.position,
          previousPosition: before.position,
          trend: keywordTrend(before.position, query.position),
          clicks: query.clicks,
          impressions: query.impressions,
        },
      }),
    );
  }
  return { created, updated };
};

export type PositionFields = { position: number; volume: number; difficulty: number };

/**
 * Records a position for a site's keyword, in the caller's transaction (under the workspace's
 * keyword lock, so each record sees the one before): the first record makes the keyword
 * (`trend: new`), a later one moves the stored position to `previous_position` and sets the
 * trend from the two.
 */
export const recordPosition = async (
  tx: DbClient,
  owner: { workspaceId: string; userId: string },
  siteId: string,
  keyword: string,
  fields: PositionFields,
): Promise<{ keyword: Keyword; created: boolean }> => {
  const key = { siteId_keyword: { siteId, keyword } };
  const existing = await tx.keyword.findUnique({ where: key });
  if (!existing) {
    const created = await tx.keyword.create({
      data: {
        workspaceId: owner.workspaceId,
        userId: owner.userId,
        siteId,
        keyword,
        ...fields,
        trend: keywordTrend(null, fields.position),
      },
    });
    return { keyword: created, created: true };
  }
  const updated = await tx.keyword.update({
    where: key,
    data: {
      ...fields,
      previousPosition: existing.position,
      trend: keywordTrend(existing.position, fields.position),
    },
  });
  return { keyword: updated, created: false };
};

/** Rewords a keyword (its positions and trend stay); the caller has checked that its site does not track the words already. */
export const rename = (tx: DbClient, id: string, keyword: string): Promise<Keyword> =>
  tx.keyword.update({ where: { id }, data: { keyword } });

/** Stops tracking one of the workspace's keywords; `removed: false` when it has no such keyword. */
export const remove = async (db: DbClient, workspaceId: string, id: string): Promise<{ removed: boolean }> => {
  const { count } = await db.keyword.deleteMany({ where: { id, workspaceId } });
  return { removed: count > 0 };
};
