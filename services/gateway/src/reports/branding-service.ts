import { randomBytes } from "node:crypto";
import { brandingViewOf, LOGO_PATH, type Logo, logoOf } from "@scan/client-reports";
import {
  AppError,
  LOGO_MAX_BYTES,
  type LogoType,
  type ReportBrandingRequest,
  type ReportBrandingView,
} from "@scan/contract";
import type { Db } from "@scan/db";

export { LOGO_PATH, type Logo };

/** The name and logo a workspace's client reports carry. */
export type BrandingService = {
  /** The workspace's report branding; a workspace that set none has its own name and no logo. */
  get: (workspaceId: string) => Promise<ReportBrandingView>;
  /** Changes what the request names (null clears); the logo's bytes are checked against its type and size. */
  set: (workspaceId: string, change: ReportBrandingRequest) => Promise<ReportBrandingView>;
  /** The logo served under `token`, or null when no workspace's logo has it. */
  logo: (token: string) => Promise<Logo | null>;
  /** The workspace's logo for its reports, or null. */
  logoOf: (workspaceId: string) => Promise<Logo | null>;
};

const SIGNATURES: Record<LogoType, number[]> = {
  "image/png": [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  "image/jpeg": [0xff, 0xd8, 0xff],
};

/** The logo's bytes, refused unless they are the image type they claim and small enough. */
export const logoBytes = (type: LogoType, data: string): Buffer => {
  const bytes = Buffer.from(data, "base64");
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new AppError(
      "payload_too_large",
      `The logo is ${Math.ceil(bytes.length / 1024)} KB; a report logo may be at most ${LOGO_MAX_BYTES / 1024} KB`,
      "Send a smaller PNG or JPEG: a logo of about 400 × 120 pixels prints sharply.",
    );
  }
  const signature = SIGNATURES[type];
  if (bytes.length < 16 || !signature.every((byte, i) => bytes[i] === byte)) {
    throw new AppError(
      "invalid_request",
      `The logo's bytes are not a ${type === "image/png" ? "PNG" : "JPEG"} image, as its type says`,
      "Send the file's own bytes in base64 (without a data: prefix), with type image/png or image/jpeg to match.",
    );
  }
  return bytes;
};

/**
 * Report branding in Postgres (`report_brandings`, a row per workspace that set any). A logo gets
 * a new random token with each upload: its URL is unguessable, public (an `<img>` and the PDF
 * renderer load it without credentials) and never served stale after a change.
 */
export const createBrandingService = ({ db }: { db: Db }): BrandingService => {
  const read = async (workspaceId: string) => {
    const workspace = await db.workspace.findUnique({
      where: { id: workspaceId },
      select: {
        name: true,
        branding: { select: { agencyName: true, logoType: true, logoToken: true, updatedAt: true } },
      },
    });
    if (!workspace) throw new AppError("not_found", "The workspace no longer exists", "Sign in again.");
    return brandingViewOf(workspace.name, workspace.branding);
  };

  const set = async (workspaceId: string, change: ReportBrandingRequest) => {
    const logo =
      change.logo === undefined
        ? {}
        : change.logo === null
          ? { logo: null, logoType: null, logoToken: null }
          : {
              logo: new Uint8Array(logoBytes(change.logo.type, change.logo.data)),
              logoType: change.logo.type,
              logoToken: randomBytes(24).toString("base64url"),
            };
    const name = change.agency_name === undefined ? {} : { agencyName: change.agency_name };
    await db.reportBranding.upsert({
      where: { workspaceId },
      create: { workspaceId, ...name, ...logo },
      update: { ...name, ...logo },
    });
    return read(workspaceId);
  };

  return {
    get: read,
    set,
    logo: async (token) =>
      logoOf(
        await db.reportBranding.findUnique({ where: { logoToken: token }, select: { logo: true, logoType: true } }),
      ),
    logoOf: async (workspaceId) =>
      logoOf(await db.reportBranding.findUnique({ where: { workspaceId }, select: { logo: true, logoType: true } })),
  };
};
