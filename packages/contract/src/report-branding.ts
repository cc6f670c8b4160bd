import { z } from "zod";

/** The largest logo a workspace may upload for its client reports, in bytes (after base64 decoding). */
export const LOGO_MAX_BYTES = 256 * 1024;

/** The image types a report logo may be: raster only (an SVG can carry script). */
export const LogoType = z.enum(["image/png", "image/jpeg"], { error: "type must be image/png or image/jpeg" });
export type LogoType = z.infer<typeof LogoType>;

/** GET /api/v1/branding: the name and logo the workspace's client reports (PDFs) carry. */
export const ReportBrandingView = z.object({
  agency_name: z
    .string()
    .nullable()
    .describe("The name at the top of every report; null: the workspace's own name is shown."),
  workspace_name: z.string().describe("The workspace's name, shown when `agency_name` is null."),
  logo_url: z
    .string()
    .nullable()
    .describe("Where the logo is served, on this service's own origin (`/logos/<token>`); null: no logo."),
  logo_type: LogoType.nullable(),
  updated_at: z.iso.datetime().nullable(),
});
export type ReportBrandingView = z.infer<typeof ReportBrandingView>;

const AgencyName = z
  .string({ error: "agency_name must be a string or null" })
  .trim()
  .min(1, "agency_name must not be empty: send 1 to 100 characters, or null to show the workspace's name")
  .max(100, "agency_name must be at most 100 characters");

/**
 * PUT /api/v1/branding body: a field left out stays as it is; null clears it. The logo comes as
 * base64 (the API's bodies are JSON); its bytes must be what its `type` says.
 */
export const ReportBrandingRequest = z.strictObject({
  agency_name: AgencyName.nullable().optional(),
  logo: z
    .strictObject({
      type: LogoType,
      data: z
        .string({ error: "logo.data must be the image's bytes in base64" })
        .regex(/^[A-Za-z0-9+/]+={0,2}$/, "logo.data must be the image's bytes in base64 (no data: prefix)")
        .max(Math.ceil(LOGO_MAX_BYTES / 3) * 4, `logo.data must decode to at most ${LOGO_MAX_BYTES / 1024} KB`),
    })
    .nullable()
    .optional(),
});
export type ReportBrandingRequest = z.infer<typeof ReportBrandingRequest>;
