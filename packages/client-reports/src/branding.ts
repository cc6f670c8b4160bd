import type { LogoType, ReportBrandingView } from "@scan/contract";
import type { Db } from "@scan/db";

/** The path a logo is served under, on the gateway's own origin (the print view asks for it there). */
export const LOGO_PATH = "/logos";

/** A logo as stored: its bytes and type. */
export type Logo = { type: LogoType; bytes: Buffer };

/** A workspace's branding row as the view reads it (null: the workspace set none). */
type BrandingRow = { agencyName: string | null; logoType: string | null; logoToken: string | null; updatedAt: Date };

export const brandingViewOf = (workspaceName: string, row: BrandingRow | null): ReportBrandingView => ({
  agency_name: row?.agencyName ?? null,
  workspace_name: workspaceName,
  logo_url: row?.logoToken ? `${LOGO_PATH}/${row.logoToken}` : null,
  logo_type: (row?.logoType as LogoType | null | undefined) ?? null,
  updated_at: row?.updatedAt.toISOString() ?? null,
});

export const logoOf = (row: { logo: Uint8Array | null; logoType: string | null } | null): Logo | null =>
  row?.logo && row.logoType ? { type: row.logoType as LogoType, bytes: Buffer.from(row.logo) } : null;

/**
 * The name and logo a workspace's reports carry, read in one query; null when the workspace no
 * longer exists.
 */
export const readReportBranding = async (
  db: Db,
  workspaceId: string,
): Promise<{ branding: ReportBrandingView; logo: Logo | null } | null> => {
  const workspace = await db.workspace.findUnique({
    where: { id: workspaceId },
    select: {
      name: true,
      branding: {
        select: { agencyName: true, logoType: true, logoToken: true, updatedAt: true, logo: true },
      },
    },
  });
  if (!workspace) return null;
  return { branding: brandingViewOf(workspace.name, workspace.branding), logo: logoOf(workspace.branding) };
};
