import type { Audit, Db, Prisma } from "@scan/db";
import { AUDIT_PAGE_OPEN, cancelWaiting } from "./audit-pages";
import { type Verdict, verdictColumns } from "./outcome";
import { AUDIT_PAGES_LOCK, quotaMonth } from "./quota-month";
import { transaction } from "./transaction";
import { allows, type DbClient, startStates, type Transitions } from "./transitions";

export type AuditState = Audit["status"];

export const AUDIT_STATES = [
  "discovering",
  "running",
  "finalizing",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly AuditState[];
/** An audit in one of these has ended: no move takes it anywhere else. */
export const AUDIT_ENDED = ["completed", "failed", "cancelled"] as const satisfies readonly AuditState[];
/** An audit under way: it counts against the user's audits at once, and keeps its site from deletion. */
export const AUDIT_UNDER_WAY = ["discovering", "running", "finalizing"] as const satisfies readonly AuditState[];

/**
 * Every move of an audit row. A new audit is `discovering` (insertDiscovering); discovery moves
 * it to `running`, the last page to end moves it to `finalizing`, and the report completes it.
 * Under way it can fail or be cancelled; an ended audit stays ended.
 */
export const AUDIT_TRANSITIONS = {
  recordDiscovery: { from: ["discovering"], to: null },
  markRunning: { from: ["discovering"], to: "running" },
  /** pages are admitted while the audit discovers or runs */
  admitPages: { from: ["discovering", "running"], to: null },
  finishIfDone: { from: ["running"], to: "finalizing" },
  complete: { from: ["finalizing"], to: "completed" },
  fail: { from: [...AUDIT_UNDER_WAY], to: "failed" },
  cancel: { from: [...AUDIT_UNDER_WAY], to: "cancelled" },
  /** a sweep queues a lost discovery or report step again */
  requeueStep: { from: ["discovering", "finalizing"], to: null },
  /** retention drops the check lists and facts of an ended audit's pages */
  prunePageChecks: { from: [...AUDIT_ENDED], to: null },
} as const satisfies Transitions<AuditState>;

/** Row filters for reads. */
export const AUDIT_WHERE = {
  underWay: { status: { in: [...AUDIT_UNDER_WAY] } },
} as const satisfies Record<string, Prisma.AuditWhereInput>;

export const isUnderWay = (status: AuditState): boolean => (AUDIT_UNDER_WAY as readonly string[]).includes(status);

/** The row as a sweep read it: a move made on it only if nothing changed it since. */
export type AuditGuard = { updatedAt: Date; requeues: number };

const where = (id: string, move: { from: readonly AuditState[] }, guard?: AuditGuard): Prisma.AuditWhereInput => ({
  id,
  status: { in: [...move.from] },
  ...(guard ? { updatedAt: guard.updatedAt, requeues: guard.requeues } : {}),
});

export type NewAudit = {
  /** the site's workspace */
  workspaceId: string;
  /** the member who started it (a schedule's: the schedule's maker) */
  userId: string;
  /** the API key it was started with; absent or null for a session's or a schedule's */
  apiKeyId?: string | null;
  siteId: string;
  startUrl: string;
  mode: Audit["mode"];
  maxPages: number;
  include: string[];
  exclude: string[];
  requestId: string;
};

/** Stores a new audit, `discovering`. */
export const insertDiscovering = (db: DbClient, audit: NewAudit) => db.audit.create({ data: audit });

/** Keeps what discovery found on the audit, and when it started. */
export const recordDiscovery = async (db: DbClient, id: string, discovery: Prisma.InputJsonValue, startedAt: Date) => {
  const { count } = await db.audit.updateMany({
    where: where(id, AUDIT_TRANSITIONS.recordDiscovery),
    data: { discovery, startedAt },
  });
  return { moved: count > 0 };
};

/** Discovery is done: the audit's pages run. */
export const markRunning = async (db: DbClient, id: string) => {
  const { count } = await db.audit.updateMany({
    where: where(id, AUDIT_TRANSITIONS.markRunning),
    data: { status: AUDIT_TRANSITIONS.markRunning.to },
  });
  return { moved: count > 0 };
};

/** A URL found for an audit: where, how deep, and whether a sitemap lists it. */
export type Candidate = { url: string; depth: number; inSitemap: boolean };
export type AdmittedPage = { id: string; url: string };

/** Why an audit's crawl admitted no more of the pages it found (`audits.crawl_limit`). */
export const CRAWL_LIMITS = ["max_pages", "client_page_quota"] as const;
export type CrawlLimit = (typeof CRAWL_LIMITS)[number];

/**
 * The audit pages a client's audits admitted in the month `within` falls in: each audit's pages
 * count in the month it started, read by `audits (client_id, created_at)`.
 */
export const clientAuditPages = async (db: DbClient, clientId: string, within: Date): Promise<number> => {
  const month = quotaMonth(within);
  const { _sum } = await db.audit.aggregate({
    where: { clientId, createdAt: { gte: month.start, lt: month.resetsAt } },
    _sum: { discovered: true },
  });
  return _sum.discovered ?? 0;
};

/**
 * Admits URLs to an audit as `queued` pages, all in one transaction on the audit's locked row:
 * a URL the audit has is not admitted twice (unique per audit and URL), and no more pages are
 * admitted than `max_pages` leaves room for, however many workers find links at once, nor than
 * the audit's client's monthly audit page quota leaves (`clients.audit_page_quota`, counted under
 * the client's AUDIT_PAGES_LOCK, in the month the audit started). URLs are admitted in the order
 * given, which is breadth-first. When a limit leaves out a URL the audit found, the audit keeps
 * which (`crawl_limit`): its crawl goes no further, and its report is of the pages admitted. A
 * sitemap URL the audit already has is marked as one. Returns the new pages, to be queued; none
 * when the audit may not admit pages.
 */
export const admitPages = async (
  db: Db,
  auditId: string,
  candidates: readonly Candidate[],
): Promise<AdmittedPage[]> => {
  if (candidates.length === 0) return [];
  const distinct = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const known = distinct.get(candidate.url);
    if (!known) distinct.set(candidate.url, { ...candidate });
    else known.inSitemap ||= candidate.inSitemap;
  }
  // most links of a page lead to pages the audit has: found without the transaction and its lock
  const known = await db.auditPage.findMany({
    where: { auditId, url: { in: [...distinct.keys()] } },
    select: { url: true, inSitemap: true },
  });
  for (const page of known) {
    if (page.inSitemap || !distinct.get(page.url)?.inSitemap) distinct.delete(page.url);
  }
  if (distinct.size === 0) return [];
  const list = [...distinct.values()];
  const urls = list.map((c) => c.url);
  const depths = list.map((c) => c.depth);
  const sitemapped = list.map((c) => c.inSitemap);
  return transaction(db, async (tx) => {
    const [audit] = await tx.$queryRaw<
      Array<{
        room: number;
        discovered: number;
        status: AuditState;
        clientId: string | null;
        createdAt: Date;
        pageQuota: number | null;
        crawlLimit: CrawlLimit | null;
      }>
    >`
      SELECT a."max_pages" - a."discovered" AS room, a."discovered", a."status"::text AS status,
        a."client_id"::text AS "clientId", a."created_at" AS "createdAt", c."audit_page_quota" AS "pageQuota",
        a."crawl_limit" AS "crawlLimit"
      FROM "audits" a LEFT JOIN "clients" c ON c."id" = a."client_id"
      WHERE a."id" = ${auditId}::uuid FOR UPDATE OF a`;
    if (!audit || !allows(AUDIT_TRANSITIONS.admitPages, audit.status)) return [];
    const sitemapUrls = urls.filter((_, i) => sitemapped[i]);
    if (sitemapUrls.length > 0)
      await tx.$executeRaw`
        UPDATE "audit_pages" SET "in_sitemap" = true, "updated_at" = now()
        WHERE "audit_id" = ${auditId}::uuid AND "url" = ANY(${sitemapUrls}::text[]) AND NOT "in_sitemap"`;
    let room = Math.max(audit.room, 0);
    let limit: CrawlLimit = "max_pages";
    if (audit.clientId !== null && audit.pageQuota !== null && room > 0) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${AUDIT_PAGES_LOCK(audit.clientId)}, 0))`;
      // read again under the lock: a quota changed since the row was read holds from here
      const client = await tx.client.findUnique({ where: { id: audit.clientId }, select: { auditPageQuota: true } });
      const quota = client?.auditPageQuota ?? null;
      if (quota !== null) {
        const left = Math.max(quota - (await clientAuditPages(tx, audit.clientId, audit.createdAt)), 0);
        if (left < room) {
          room = left;
          limit = "client_page_quota";
        }
      }
    }
    // positions follow on from the pages admitted before: the audit's row is locked, so they are unique
    const admitted =
      room === 0
        ? []
        : await tx.$queryRaw<AdmittedPage[]>`
      INSERT INTO "audit_pages" ("id", "audit_id", "url", "position", "depth", "in_sitemap", "status", "updated_at")
      SELECT gen_random_uuid(), ${auditId}::uuid, fresh.url, ${audit.discovered}::int + row_number() OVER (ORDER BY fresh.ord),
        fresh.depth, fresh.in_sitemap, 'queued', now()
      FROM (
        SELECT u.url, u.depth, u.in_sitemap, u.ord
        FROM unnest(${urls}::text[], ${depths}::int[], ${sitemapped}::boolean[]) WITH ORDINALITY AS u(url, depth, in_sitemap, ord)
        WHERE NOT EXISTS (SELECT 1 FROM "audit_pages" p WHERE p."audit_id" = ${auditId}::uuid AND p."url" = u.url)
        ORDER BY u.ord
        LIMIT ${room}
      ) AS fresh
      RETURNING "id"::text AS id, "url"`;
    // a limit left a URL out when the room was filled and a URL the audit lacks remains
    const leftOut =
      admitted.length === room &&
      (
        await tx.$queryRaw<Array<{ left: boolean }>>`
          SELECT EXISTS (SELECT 1 FROM unnest(${urls}::text[]) AS u(url)
            WHERE NOT EXISTS (SELECT 1 FROM "audit_pages" p WHERE p."audit_id" = ${auditId}::uuid AND p."url" = u.url)) AS left`
      )[0]?.left === true;
    if (admitted.length > 0 || (leftOut && audit.crawlLimit !== limit))
      await tx.$executeRaw`
        UPDATE "audits" SET "discovered" = "discovered" + ${admitted.length},
          "crawl_limit" = CASE WHEN ${leftOut} THEN ${limit} ELSE "crawl_limit" END, "updated_at" = now()
        WHERE "id" = ${auditId}::uuid`;
    return admitted;
  });
};

/**
 * Moves a running audit on to its report once no page is still open. The test and the move
 * are one statement, so of the workers finishing its last pages at once exactly one moves it
 * (and queues the report). A page's links are admitted while the page is still running, so
 * the audit never looks finished while a page it found is still to come.
 */
export const finishIfDone = async (db: DbClient, auditId: string): Promise<boolean> => {
  const moved = await db.$executeRaw`
    UPDATE "audits" SET "status" = ${AUDIT_TRANSITIONS.finishIfDone.to}::"AuditStatus", "updated_at" = now()
    WHERE "id" = ${auditId}::uuid AND "status" = ANY(${startStates(AUDIT_TRANSITIONS.finishIfDone)}::"AuditStatus"[])
      AND NOT EXISTS (SELECT 1 FROM "audit_pages" WHERE "audit_id" = ${auditId}::uuid
        AND "status" = ANY(${[...AUDIT_PAGE_OPEN]}::"AuditPageStatus"[]))`;
  return moved > 0;
};

/**
 * Stores the audit's report: the audit completes, and `alongside` (its alerts) is written in
 * the same transaction only when it does, so an audit alerts once or not at all.
 */
export const complete = (
  db: Db,
  id: string,
  report: Verdict & Prisma.InputJsonObject,
  completedAt: Date,
  alongside?: (tx: DbClient) => Promise<unknown>,
): Promise<{ stored: boolean }> =>
  transaction(db, async (tx) => {
    const { count } = await tx.audit.updateMany({
      where: where(id, AUDIT_TRANSITIONS.complete),
      data: { status: AUDIT_TRANSITIONS.complete.to, report, ...verdictColumns(report), completedAt },
    });
    if (count > 0) await alongside?.(tx);
    return { stored: count > 0 };
  });

/** Fails an audit under way with its reason; with `guard` (a sweep), only if the row is as read. */
export const fail = async (db: DbClient, id: string, reason: { code: string; message: string }, guard?: AuditGuard) => {
  const { count } = await db.audit.updateMany({
    where: where(id, AUDIT_TRANSITIONS.fail, guard),
    data: {
      status: AUDIT_TRANSITIONS.fail.to,
      errorCode: reason.code,
      errorMessage: reason.message.slice(0, 1000),
      completedAt: new Date(),
    },
  });
  return { moved: count > 0 };
};

/**
 * Cancels an audit under way and, with it, its pages not yet started (audit_pages.cancelWaiting);
 * pages being scanned finish and are kept. An ended audit is left as it is.
 */
export const cancel = (db: Db, id: string) =>
  transaction(db, async (tx) => {
    const { count } = await tx.audit.updateMany({
      where: where(id, AUDIT_TRANSITIONS.cancel),
      data: { status: AUDIT_TRANSITIONS.cancel.to, completedAt: new Date() },
    });
    if (count > 0) await cancelWaiting(tx, id);
    return { moved: count > 0 };
  });

/** Claims an audit whose discovery or report job was lost, to queue the step again. */
export const requeueStep = async (db: DbClient, id: string, guard: AuditGuard) => {
  const { count } = await db.audit.updateMany({
    where: where(id, AUDIT_TRANSITIONS.requeueStep, guard),
    data: { requeues: guard.requeues + 1 },
  });
  return { moved: count > 0 };
};

/**
 * Drops the check lists and facts of ended audits' pages older than `cutoff`, at most `batchSize`
 * of them, skipping rows another transaction holds. `cutoff` is SQL over the audit's workspace as `u`.
 */
export const prunePageChecks = (db: DbClient, cutoff: Prisma.Sql, batchSize: number): Promise<number> =>
  db.$executeRaw`UPDATE "audit_pages" SET "checks" = NULL, "facts" = NULL WHERE "id" IN (
    SELECT p."id" FROM "audit_pages" p JOIN "audits" a ON a."id" = p."audit_id" JOIN "workspaces" u ON u."id" = a."workspace_id"
    WHERE (p."checks" IS NOT NULL OR p."facts" IS NOT NULL)
      AND a."status" = ANY(${startStates(AUDIT_TRANSITIONS.prunePageChecks)}::"AuditStatus"[])
      AND a."created_at" < ${cutoff}
    LIMIT ${batchSize} FOR UPDATE OF p SKIP LOCKED)`;
