import type { DeletedRecord, PageMeta } from "@scan/contract";
import {
  AppError,
  type KeywordImportResult,
  type KeywordListQuery,
  type KeywordView,
  offsetOf,
  pageMeta,
  type RecordKeywordRequest,
  type SearchConsoleImportRequest,
} from "@scan/contract";
import type { Db, Keyword } from "@scan/db";
import { keywords as keywordRows, type Owner } from "@scan/records";
import { withUserLock } from "../access/user-lock";
import type { SearchConsoleReader } from "./search-console-api";
import { QUERIES_HINT, type QueriesReading, readQueriesCsv } from "./search-console-import";
import { type SiteService, siteNotFound } from "./site-service";

/** rows named in an import's refusal; the rest are counted */
const ROWS_NAMED = 10;

export const toKeywordView = (keyword: Keyword): KeywordView => ({
  id: keyword.id,
  site_id: keyword.siteId,
  keyword: keyword.keyword,
  position: keyword.position,
  previous_position: keyword.previousPosition,
  volume: keyword.volume,
  difficulty: keyword.difficulty,
  trend: keyword.trend,
  clicks: keyword.clicks,
  impressions: keyword.impressions,
  created_at: keyword.createdAt.toISOString(),
  updated_at: keyword.updatedAt.toISOString(),
});

/**
 * Newest first, the id breaking ties, so pages neither repeat nor skip a keyword. Recording a
 * new position updates the keyword in place and leaves its place in the list where it was.
 * Served by (workspace_id, created_at, id), and by (site_id, created_at, id) with site_id.
 */
const ORDER = [{ createdAt: "desc" as const }, { id: "desc" as const }];

export type KeywordService = {
  /** The workspace's keywords, newest first, of one site when `site_id` is given. */
  list: (workspaceId: string, query: KeywordListQuery) => Promise<{ keywords: KeywordView[]; meta: PageMeta }>;
  /** Records the keyword's position for one of the workspace's sites (made by `owner.userId`): the first record creates it, a later one sets its trend. */
  record: (owner: Owner, input: RecordKeywordRequest) => Promise<{ keyword: KeywordView; created: boolean }>;
  /** Rewords one of the workspace's keywords; its positions and trend stay. */
  rename: (workspaceId: string, keywordId: string, keyword: string) => Promise<KeywordView>;
  /** Stops tracking one of the workspace's keywords; its recorded positions go with it. */
  remove: (workspaceId: string, keywordId: string) => Promise<DeletedRecord>;
  /** Imports Search Console's queries export (Queries.csv) into a site's keywords: all or nothing. */
  importCsv: (owner: Owner, siteId: string, csv: string) => Promise<KeywordImportResult>;
  /** Imports queries read from Search Console's API (already checked) into a site's keywords. */
  importReading: (owner: Owner, siteId: string, reading: QueriesReading) => Promise<KeywordImportResult>;
  /** Asks Search Console's API for a property's queries with the caller's token and imports them. */
  importFromSearchConsole: (
    owner: Owner,
    siteId: string,
    request: SearchConsoleImportRequest,
  ) => Promise<KeywordImportResult>;
};

/**
 * Whether a Search Console property covers the site: a domain property (`sc-domain:acme.com`) its
 * host or a parent of it, a URL-prefix property (`https://acme.com/`) a prefix on its origin. The
 * queries of another site's property are not this site's keywords.
 */
export const propertyCovers = (property: string, siteUrl: string): boolean => {
  let site: URL;
  try {
    site = new URL(siteUrl);
  } catch {
    return false;
  }
  if (property.startsWith("sc-domain:")) {
    const domain = property.slice("sc-domain:".length).trim().toLowerCase().replace(/\.$/, "");
    const host = site.hostname.toLowerCase();
    return domain !== "" && (host === domain || host.endsWith(`.${domain}`));
  }
  try {
    const prefix = new URL(property);
    return prefix.origin === site.origin && prefix.username === "" && prefix.password === "";
  } catch {
    return false;
  }
};

/** The keywords a workspace tracks: list, and record a keyword's current position. */
export const createKeywordService = ({
  db,
  sites,
  searchConsole,
}: {
  db: Db;
  sites: SiteService;
  /** the Search Console API's reader (the gateway's, at SEARCH_CONSOLE_ROOT_URL) */
  searchConsole?: SearchConsoleReader;
}): KeywordService => {
  const list = async (
    workspaceId: string,
    query: KeywordListQuery,
  ): Promise<{ keywords: KeywordView[]; meta: PageMeta }> => {
    if (query.site_id !== undefined) await sites.assertOwned(workspaceId, query.site_id);
    const where = {
      workspaceId,
      ...(query.site_id === undefined ? {} : { siteId: query.site_id }),
      ...(query.client_id === undefined ? {} : { site: { clientId: query.client_id } }),
    };
    const [total, rows] = await db.$transaction(
      [
        db.keyword.count({ where }),
        db.keyword.findMany({ where, orderBy: ORDER, skip: offsetOf(query), take: query.limit }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { keywords: rows.map(toKeywordView), meta: pageMeta(query, total) };
  };

  /**
   * Records the keyword's position for one of the workspace's sites: the first record creates it
   * (`trend` new), a later one moves the stored position to `previous_position` and sets the
   * trend from the two. Under the workspace's lock, so concurrent records of one keyword apply one
   * after the other and each sees the position before it.
   */
  const record = (owner: Owner, input: RecordKeywordRequest): Promise<{ keyword: KeywordView; created: boolean }> =>
    withUserLock(db, "keywords", owner.workspaceId, async (tx) => {
      const site = await tx.site.findFirst({
        where: { id: input.site_id, workspaceId: owner.workspaceId },
        select: { id: true },
      });
      if (!site) throw siteNotFound(input.site_id);
      const { keyword, created } = await keywordRows.recordPosition(tx, owner, input.site_id, input.keyword, {
        position: input.position,
        volume: input.volume,
        difficulty: input.difficulty,
      });
      return { keyword: toKeywordView(keyword), created };
    });

  const keywordNotFound = (id: string) =>
    new AppError("not_found", `No keyword with id ${id}`, "Use a keyword id from GET /api/v1/keywords.");

  /**
   * Rewords one of the workspace's keywords; its positions and trend stay. Its site tracking the new
   * wording already is 409: two records of one query would split its history.
   */
  const rename = (workspaceId: string, keywordId: string, keyword: string): Promise<KeywordView> =>
    withUserLock(db, "keywords", workspaceId, async (tx) => {
      const existing = await tx.keyword.findFirst({ where: { id: keywordId, workspaceId } });
      if (!existing) throw keywordNotFound(keywordId);
      if (existing.keyword === keyword) return toKeywordView(existing);
      const taken = await tx.keyword.findUnique({
        where: { siteId_keyword: { siteId: existing.siteId, keyword } },
        select: { id: true },
      });
      if (taken) {
        throw new AppError(
          "conflict",
          `The site already tracks "${keyword}".`,
          "Delete one of the two keywords, or choose other words.",
        );
      }
      return toKeywordView(await keywordRows.rename(tx, keywordId, keyword));
    });

  /** Stops tracking one of the workspace's keywords; its recorded positions go with it. */
  const remove = async (workspaceId: string, keywordId: string): Promise<{ id: string; deleted: true }> => {
    const { removed } = await keywordRows.remove(db, workspaceId, keywordId);
    if (!removed) throw keywordNotFound(keywordId);
    return { id: keywordId, deleted: true };
  };

  /**
   * Stores the queries of a reading, or refuses it whole: a file or a row at fault is 400 naming
   * up to 10 rows, and nothing is stored. Under the workspace's keyword lock, as a recorded position.
   */
  const importReading = async (owner: Owner, siteId: string, reading: QueriesReading) => {
    await sites.assertOwned(owner.workspaceId, siteId);
    if (!reading.ok) {
      if (reading.file !== null)
        throw new AppError("invalid_request", `Nothing was imported: ${reading.file}`, QUERIES_HINT);
      const named = reading.rowProblems.slice(0, ROWS_NAMED).map(({ row, problem }) => `row ${row}: ${problem}`);
      const more = reading.rowProblems.length - named.length;
      throw new AppError(
        "invalid_request",
        `Nothing was imported: ${reading.rowProblems.length} of ${reading.rows} rows cannot be imported. ${named.join("; ")}${more > 0 ? `; and ${more} more` : ""}`,
        QUERIES_HINT,
      );
    }
    const { created, updated } = await withUserLock(db, "keywords", owner.workspaceId, (tx) =>
      keywordRows.importQueries(tx, owner, siteId, reading.queries),
    );
    const order = new Map(reading.queries.map((query, index) => [query.keyword, index]));
    const stored = [...created, ...updated].sort((a, b) => (order.get(a.keyword) ?? 0) - (order.get(b.keyword) ?? 0));
    return {
      rows: reading.rows,
      created: created.length,
      updated: updated.length,
      skipped: reading.skipped,
      keywords: stored.map(toKeywordView),
    };
  };

  const importCsv = (owner: Owner, siteId: string, csv: string) => importReading(owner, siteId, readQueriesCsv(csv));

  const importFromSearchConsole = async (owner: Owner, siteId: string, request: SearchConsoleImportRequest) => {
    const site = await db.site.findFirst({
      where: { id: siteId, workspaceId: owner.workspaceId },
      select: { url: true },
    });
    if (!site) throw siteNotFound(siteId);
    if (!propertyCovers(request.property, site.url))
      throw new AppError(
        "invalid_request",
        `property ${request.property.slice(0, 200)} does not cover the site ${site.url}`,
        "Name the site's Search Console property: sc-domain:<the site's domain or a parent of it>, or a URL prefix on the site's origin such as its URL with a trailing slash.",
      );
    // the gateway always has one; a service made without it (the demo seed) never imports
    if (!searchConsole) throw new Error("this keyword service was made without a Search Console reader");
    return importReading(owner, siteId, await searchConsole(request));
  };

  return { list, record, rename, remove, importCsv, importReading, importFromSearchConsole };
};
