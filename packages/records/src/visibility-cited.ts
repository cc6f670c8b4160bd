import type { VisibilityCitedPage } from "@scan/db";
import type { DbClient } from "./transitions";

export type CitedSide = "brand" | "competitor";

/** A cited page of a run as it is joined to the audit: scanned (a new scan or a recent one taken) or refused. */
export type NewCitedPage = {
  runId: string;
  workspaceId: string;
  url: string;
  scanUrl: string;
  domain: string;
  side: CitedSide;
  competitor: string | null;
  citations: number;
} & ({ scanId: string; reused: boolean; refusedReason?: never } | { scanId?: never; refusedReason: string });

/**
 * Stores a run's cited pages, once per run and URL: written in the transaction that stores the
 * scans they name (the scan intake's), so a page never points at a scan that was not stored. A
 * page already stored for the run is kept as it is.
 */
export const insertCitedPages = async (db: DbClient, pages: readonly NewCitedPage[]): Promise<number> => {
  if (pages.length === 0) return 0;
  const { count } = await db.visibilityCitedPage.createMany({
    data: pages.map((page) => ({
      runId: page.runId,
      workspaceId: page.workspaceId,
      url: page.url,
      scanUrl: page.scanUrl,
      domain: page.domain,
      side: page.side,
      competitor: page.competitor,
      citations: page.citations,
      scanId: page.scanId ?? null,
      reused: page.scanId ? page.reused : false,
      refusedReason: page.refusedReason ?? null,
    })),
    skipDuplicates: true,
  });
  return count;
};

export type StoredCitedPage = VisibilityCitedPage;
