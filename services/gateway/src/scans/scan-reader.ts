import type { PageMeta, ScanListQuery } from "@scan/contract";
import { AppError, likeLiteral, offsetOf, pageMeta } from "@scan/contract";
import type { Db, Scan, WebhookDelivery } from "@scan/db";
import { SCAN_WHERE, scans as scanRows } from "@scan/records";
import { grantsAccess } from "../access/scan-access";

export const isTerminal = (scan: Pick<Scan, "status">): boolean => scanRows.isEnded(scan.status);

/** Which of these scans have finished: the waiter's fallback when an event is missed. */
export const terminalScansAmong =
  (db: Db) =>
  async (ids: readonly string[]): Promise<ReadonlySet<string>> => {
    const rows = await db.scan.findMany({
      where: { id: { in: [...ids] }, ...SCAN_WHERE.ended },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  };

/** Reads stored scans for their viewers: a key holder's list, one scan, its callback attempts. */
export const createScanReader = ({ db }: { db: Db }) => {
  /**
   * The workspace's scans (the key's or the session's), newest first; the id breaks ties, so pages neither repeat nor skip.
   * `origins` (sites' `scheme://host[:port]`) keeps the scans of those origins' URLs (none: no
   * scan): normalised scan URLs always carry a path, so the origin and a slash begin every one of them.
   */
  const list = async (
    workspaceId: string,
    query: ScanListQuery,
    origins?: readonly string[],
  ): Promise<{ scans: Array<Omit<Scan, "checks">>; meta: PageMeta }> => {
    const where = {
      workspaceId,
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(origins === undefined
        ? {}
        : { OR: origins.map((origin) => ({ url: { startsWith: likeLiteral(`${origin}/`) } })) }),
    };
    const [total, scans] = await db.$transaction(
      [
        db.scan.count({ where }),
        db.scan.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: offsetOf(query),
          take: query.limit,
          // a list shows no checks: a full scan's are kilobytes to read, parse and validate, twenty times a page
          omit: { checks: true },
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { scans, meta: pageMeta(query, total) };
  };

  /**
   * A scan the viewer may see: their workspace's (`viewerWorkspaceId`), or an anonymous one whose
   * access link's token is `accessToken` (scan-access.ts). Anything else, another workspace's scan or an
   * anonymous scan without its token, is 404, the same answer as a missing one.
   */
  const get = async (id: string, viewerWorkspaceId: string | null, accessToken?: string): Promise<Scan> => {
    const scan = await db.scan.findUnique({ where: { id } });
    const visible =
      scan !== null &&
      ((viewerWorkspaceId !== null && scan.workspaceId === viewerWorkspaceId) ||
        (scan.workspaceId === null && grantsAccess(scan.accessTokenHash, accessToken)));
    if (!visible) {
      throw new AppError(
        "not_found",
        `No scan with id ${id}`,
        accessToken === undefined
          ? "Use the id returned by POST /api/v1/scan; an anonymous scan is read with the whole link from its Location header."
          : "Use the whole link from the Location header of the POST /api/v1/scan that made the scan.",
      );
    }
    return scan;
  };

  /** The callback attempts of a scan, oldest first. */
  const deliveries = (scanId: string): Promise<WebhookDelivery[]> =>
    db.webhookDelivery.findMany({ where: { scanId }, orderBy: [{ attempt: "asc" }, { createdAt: "asc" }] });

  return { list, get, deliveries };
};
