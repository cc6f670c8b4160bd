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
 * The credentials a scan sends: those of its owner's site of the scanned URL's origin, when
 * the site has any (a site behind a login). Anonymous scans, and scans of sites without
 * credentials, send none. Opened here, in the worker, and handed to the scanner alone: they
 * are never logged and never stored anywhere but sealed on the site.
 */
export const createSiteAccessReader =
  ({ db, box }: { db: Db; box: SecretBox | null }) =>
  async (scanId: string): Promise<SiteAccess | undefined> => {
    const scan = await db.scan.findUnique({ where: { id: scanId }, select: { userId: true, url: true } });
    if (!scan?.userId) return undefined;
    const origin = new URL(scan.url).origin;
    const site = await db.site.findUnique({
      where: { userId_url: { userId: scan.userId, url: origin } },
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

export type SiteAccessReader = ReturnType<typeof createSiteAccessReader>;
