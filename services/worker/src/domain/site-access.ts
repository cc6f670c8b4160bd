import { credentialHeaders, SiteCredentialsRequest } from "@scan/contract";
import type { Db } from "@scan/db";
import type { SecretBox } from "@scan/platform";
import type { SiteAccess } from "@scan/scanner";

/** A scan of a site whose credentials this worker cannot read: it fails, saying so, rather than scan the login wall. */
export class SiteAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SiteAccessError";
  }
}

/**
 * The credentials a scan sends: those of its workspace's site of the scanned URL's origin, when
 * the site has any (a site behind a login). Anonymous scans, and scans of sites without
 * credentials, send none. Opened here, in the worker, and handed to the scanner alone: they
 * are never logged and never stored anywhere but sealed on the site.
 */
export const createSiteAccessReader = ({ db, box }: { db: Db; box: SecretBox | null }) => {
  /** The credentials of the workspace's site of `url`'s origin, if it has any. */
  const forOwner = async (workspaceId: string, url: string): Promise<SiteAccess | undefined> => {
    const origin = new URL(url).origin;
    const site = await db.site.findUnique({
      where: { workspaceId_url: { workspaceId, url: origin } },
      select: { credentialsSealed: true },
    });
    if (!site?.credentialsSealed) return undefined;
    if (!box) {
      throw new SiteAccessError(
        `${origin} has credentials for a login, and this service cannot read them (SITE_SECRETS_KEY is not set on the worker)`,
      );
    }
    try {
      const credentials = SiteCredentialsRequest.parse(JSON.parse(box.open(site.credentialsSealed)));
      return { origin, headers: credentialHeaders(credentials) };
    } catch {
      throw new SiteAccessError(
        `${origin} has credentials for a login that this service's SITE_SECRETS_KEY cannot open: set them again`,
      );
    }
  };

  /** A scan's: its owner's site of the scanned origin; anonymous scans send none. */
  const forScan = async (scanId: string): Promise<SiteAccess | undefined> => {
    const scan = await db.scan.findUnique({ where: { id: scanId }, select: { workspaceId: true, url: true } });
    return scan?.workspaceId ? forOwner(scan.workspaceId, scan.url) : undefined;
  };

  /** An audit's pages': the audited site's, for the pages of its origin (the scanner sends them nowhere else). */
  const forAudit = async (auditId: string): Promise<SiteAccess | undefined> => {
    const audit = await db.audit.findUnique({
      where: { id: auditId },
      select: { workspaceId: true, site: { select: { url: true } } },
    });
    return audit ? forOwner(audit.workspaceId, audit.site.url) : undefined;
  };

  return { forScan, forAudit, forOwner };
};

/** Where a job's credentials come from: its scan's or its audit's id. */
export type SiteAccessReader = (id: string) => Promise<SiteAccess | undefined>;
