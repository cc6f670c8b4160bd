import {
  AppError,
  credentialsView,
  type DeletedRecord,
  SiteCredentialsRequest,
  type SiteCredentialsView,
} from "@scan/contract";
import type { Db } from "@scan/db";
import type { SecretBox } from "@scan/platform";
import { sites } from "@scan/records";
import { siteNotFound } from "./site-service";

const unconfigured = () =>
  new AppError(
    "service_unavailable",
    "Credentials for sites behind a login are not configured on this service",
    "The operator sets SITE_SECRETS_KEY (32 bytes in base64) on the gateway and the worker; see docs/sites-and-lists.md.",
  );

const noneSet = (siteId: string) =>
  new AppError(
    "not_found",
    `Site ${siteId} has no credentials`,
    "PUT /api/v1/sites/:id/credentials with headers, cookies or basic sets them.",
  );

export type SiteCredentials = {
  /** Sets the site's credentials whole, sealed before they reach Postgres; answers them by name only. */
  set: (workspaceId: string, siteId: string, input: SiteCredentialsRequest) => Promise<SiteCredentialsView>;
  /** The site's credentials by name only; 404 when none are set. */
  show: (workspaceId: string, siteId: string) => Promise<SiteCredentialsView>;
  /** Removes the site's credentials. */
  remove: (workspaceId: string, siteId: string) => Promise<DeletedRecord>;
};

/**
 * The credentials of a workspace's sites behind a login: set whole (sealed with the deployment's
 * key before they reach Postgres), shown by name only, removed. Their values leave this
 * service only in the worker's requests to the site's own origin.
 */
export const createSiteCredentials = ({ db, box }: { db: Db; box: SecretBox | null }): SiteCredentials => {
  const sealer = (): SecretBox => {
    if (!box) throw unconfigured();
    return box;
  };

  const owned = async (workspaceId: string, siteId: string) => {
    const site = await db.site.findFirst({
      where: { id: siteId, workspaceId },
      select: { id: true, credentialsSealed: true, credentialsUpdatedAt: true },
    });
    if (!site) throw siteNotFound(siteId);
    return site;
  };

  const set = async (
    workspaceId: string,
    siteId: string,
    input: SiteCredentialsRequest,
  ): Promise<SiteCredentialsView> => {
    const sealed = sealer().seal(JSON.stringify(input));
    await owned(workspaceId, siteId);
    const updatedAt = new Date();
    const { moved } = await sites.setCredentials(db, workspaceId, siteId, sealed, updatedAt);
    if (!moved) throw siteNotFound(siteId);
    return credentialsView(input, updatedAt);
  };

  const show = async (workspaceId: string, siteId: string): Promise<SiteCredentialsView> => {
    const site = await owned(workspaceId, siteId);
    if (!site.credentialsSealed || !site.credentialsUpdatedAt) throw noneSet(siteId);
    let opened: unknown;
    try {
      opened = JSON.parse(sealer().open(site.credentialsSealed));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(
        "service_unavailable",
        `The credentials of site ${siteId} cannot be read with this service's key`,
        "They were sealed under another SITE_SECRETS_KEY: set them again, or restore the key they were sealed with.",
      );
    }
    return credentialsView(SiteCredentialsRequest.parse(opened), site.credentialsUpdatedAt);
  };

  const remove = async (workspaceId: string, siteId: string): Promise<{ id: string; deleted: true }> => {
    const site = await owned(workspaceId, siteId);
    if (!site.credentialsSealed) throw noneSet(siteId);
    await sites.clearCredentials(db, workspaceId, siteId);
    return { id: siteId, deleted: true };
  };

  return { set, show, remove };
};
