import { dataOf, type paths, type ReportBrandingView } from "@scan/client";
import { type ChangeEvent, type FormEvent, useState } from "react";
import { Field, FormError, Loading, Notice, Problem } from "../components/ui";
import { asProblem, useLoad } from "../load";
import { useApi } from "../session";

/** the API's limit (LOGO_MAX_BYTES in @scan/contract); checked here too, to say so before uploading */
const LOGO_MAX_BYTES = 256 * 1024;
const LOGO_TYPES = ["image/png", "image/jpeg"] as const;
type LogoType = (typeof LOGO_TYPES)[number];
type BrandingChange = paths["/api/v1/branding"]["put"]["requestBody"]["content"]["application/json"];

const base64Of = async (file: File): Promise<string> => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

/**
 * The name and logo the workspace's client reports (PDFs of scans and audits) carry. Everyone
 * in the workspace sees them; anyone but a viewer changes them.
 */
export const ReportBranding = ({ canEdit }: { canEdit: boolean }) => {
  const api = useApi();
  const loaded = useLoad(async () => dataOf(await api.GET("/api/v1/branding")), [api]);
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const branding: ReportBrandingView | null = loaded.data;

  const change = async (body: BrandingChange, done: string) => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      dataOf(await api.PUT("/api/v1/branding", { body }));
      setSaved(done);
      await loaded.reload();
    } catch (failure) {
      const problem = asProblem(failure);
      setError(`${problem.message}. ${problem.hint ?? ""}`.trim());
    } finally {
      setBusy(false);
    }
  };

  const saveName = (event: FormEvent) => {
    event.preventDefault();
    const typed = (name ?? branding?.agency_name ?? "").trim();
    void change({ agency_name: typed === "" ? null : typed }, "The name on your reports is saved.");
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type as LogoType)) {
      setError(`${file.name} is not a PNG or JPEG image. Choose a PNG or JPEG file.`);
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setError(
        `${file.name} is ${Math.ceil(file.size / 1024)} KB; a logo may be at most 256 KB. Choose a smaller image.`,
      );
      return;
    }
    void change({ logo: { type: file.type as LogoType, data: await base64Of(file) } }, "The logo is saved.");
  };

  return (
    <section className="card" aria-labelledby="branding-title">
      <h2 id="branding-title">Client reports</h2>
      <p className="muted">
        The PDF reports of your scans and audits carry this name and logo at the top, so you can hand them to your
        clients as your own.
      </p>
      {loaded.state === "error" ? <Problem problem={loaded.problem} retry={() => void loaded.reload()} /> : null}
      {!branding && loaded.state === "loading" ? <Loading what="the report settings" /> : null}
      {branding ? (
        <>
          <p className="muted">The top of a report:</p>
          <div className="branding-preview">
            {branding.logo_url ? <img src={branding.logo_url} alt="Your report logo" className="print-logo" /> : null}
            <strong>{branding.agency_name ?? branding.workspace_name}</strong>
          </div>
          {canEdit ? (
            <>
              <form onSubmit={saveName} className="branding-form">
                <Field label="Agency name" hint={`Empty: the workspace's name (${branding.workspace_name}) is shown.`}>
                  {(props) => (
                    <input
                      {...props}
                      maxLength={100}
                      value={name ?? branding.agency_name ?? ""}
                      onChange={(event) => setName(event.target.value)}
                    />
                  )}
                </Field>
                <button type="submit" className="button" disabled={busy}>
                  Save name
                </button>
              </form>
              <Field label="Logo" hint="A PNG or JPEG of at most 256 KB; about 400 × 120 pixels prints sharply.">
                {(props) => (
                  <input
                    {...props}
                    type="file"
                    accept="image/png,image/jpeg"
                    onChange={(e) => void upload(e)}
                    disabled={busy}
                  />
                )}
              </Field>
              {branding.logo_url ? (
                <button
                  type="button"
                  className="button secondary small"
                  disabled={busy}
                  onClick={() => void change({ logo: null }, "The logo is removed.")}
                >
                  Remove the logo
                </button>
              ) : null}
            </>
          ) : null}
          {saved ? <Notice kind="success">{saved}</Notice> : null}
          <FormError error={error} />
        </>
      ) : null}
    </section>
  );
};
