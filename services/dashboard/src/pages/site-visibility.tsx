import { type DataOf, dataOf, problemSentence } from "@scan/client";
import { type FormEvent, useState } from "react";
import { Shell } from "../components/layout";
import { ReadOnlyNotice } from "../components/read-only";
import { Field, FormError, Loading, Notice, PageTitle, Problem } from "../components/ui";
import { formatDateTime, linesOf, siteTitle } from "../format";
import { asProblem, useLoad } from "../load";
import { Link, usePlace } from "../router";
import { useApi } from "../session";
import { useCanWrite } from "../workspace";
import { Competitors } from "./visibility-competitors";
import { Prompts } from "./visibility-prompts";
import { VisibilityResults } from "./visibility-results";

/**
 * What a site's AI visibility is measured with: its profile (the brand's names and domains, how
 * many samples, which engines), the prompts the engines are asked, and the competitors it is
 * measured against. A viewer reads all of it; the write controls are not offered.
 */

type Profile = DataOf<"getVisibilityProfile">;
type AiEngine = Profile["engines"][number];

export const AI_ENGINES: AiEngine[] = ["chatgpt", "claude", "perplexity", "gemini"];
export const AI_ENGINE_NAME: Record<AiEngine, string> = {
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};

const pageOf = (value: string | null) => Math.max(1, Math.floor(Number(value)) || 1);

const ProfileSummary = ({ profile }: { profile: Profile }) => (
  <dl className="facts">
    <div>
      <dt>Brand names</dt>
      <dd>{profile.brand_names.join(", ")}</dd>
    </div>
    <div>
      <dt>Brand domains</dt>
      <dd className="url">{profile.brand_domains.join(", ") || "–"}</dd>
    </div>
    <div>
      <dt>Samples per prompt</dt>
      <dd>{profile.samples_per_prompt}</dd>
    </div>
    <div>
      <dt>Engines</dt>
      <dd>{profile.engines.map((engine) => AI_ENGINE_NAME[engine]).join(", ")}</dd>
    </div>
    <div>
      <dt>Tracked</dt>
      <dd>
        {profile.prompt_count} {profile.prompt_count === 1 ? "prompt" : "prompts"}, {profile.competitor_count}{" "}
        {profile.competitor_count === 1 ? "competitor" : "competitors"}
      </dd>
    </div>
  </dl>
);

const ProfileForm = ({ siteId, profile, onSaved }: { siteId: string; profile: Profile; onSaved: () => void }) => {
  const api = useApi();
  const [names, setNames] = useState(profile.brand_names.join("\n"));
  const [domains, setDomains] = useState(profile.brand_domains.join("\n"));
  const [samples, setSamples] = useState(String(profile.samples_per_prompt));
  const [engines, setEngines] = useState<AiEngine[]>(profile.engines);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      dataOf(
        await api.PUT("/api/v1/sites/{id}/visibility", {
          params: { path: { id: siteId } },
          body: {
            brand_names: linesOf(names, { commas: false }),
            brand_domains: linesOf(domains),
            samples_per_prompt: Number(samples),
            // kept in the API's order, whatever order they were ticked in
            engines: AI_ENGINES.filter((engine) => engines.includes(engine)),
          },
        }),
      );
      onSaved();
    } catch (failure) {
      const problem = asProblem(failure);
      setError(problemSentence(problem.message, problem.hint));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (engine: AiEngine, on: boolean) =>
    setEngines((previous) => (on ? [...previous, engine] : previous.filter((other) => other !== engine)));
  return (
    <form onSubmit={submit} aria-labelledby="profile-form-title" className="add-record">
      <h3 id="profile-form-title">{profile.configured ? "Change the profile" : "Set the profile"}</h3>
      <div className="form-row">
        <Field label="Brand names" hint="One per line, the main name first: what an answer may call the brand.">
          {(props) => (
            <textarea {...props} required rows={3} value={names} onChange={(e) => setNames(e.target.value)} />
          )}
        </Field>
        <Field
          label="Brand domains"
          hint="One per line (example.com): the brand's own pages when an answer cites them."
        >
          {(props) => <textarea {...props} rows={3} value={domains} onChange={(e) => setDomains(e.target.value)} />}
        </Field>
      </div>
      <div className="form-row">
        <Field label="Samples per prompt" hint="1 to 10: how often each engine is asked each prompt in a run.">
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              max={10}
              step={1}
              inputMode="numeric"
              required
              className="short"
              value={samples}
              onChange={(e) => setSamples(e.target.value)}
            />
          )}
        </Field>
      </div>
      <fieldset>
        <legend>Engines asked</legend>
        <div className="engine-choices">
          {AI_ENGINES.map((engine) => (
            <div key={engine} className="check-field">
              <input
                id={`engine-${engine}`}
                type="checkbox"
                checked={engines.includes(engine)}
                onChange={(e) => toggle(engine, e.target.checked)}
              />
              <label htmlFor={`engine-${engine}`}>{AI_ENGINE_NAME[engine]}</label>
            </div>
          ))}
        </div>
      </fieldset>
      <FormError error={error} />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Saving…" : "Save profile"}
      </button>
    </form>
  );
};

const ProfileSection = ({ siteId, refresh }: { siteId: string; refresh: number }) => {
  const api = useApi();
  const canWrite = useCanWrite();
  const [saved, setSaved] = useState(0);
  const profile = useLoad(
    async () => dataOf(await api.GET("/api/v1/sites/{id}/visibility", { params: { path: { id: siteId } } })),
    [api, siteId, saved, refresh],
  );
  if (profile.state === "error" && !profile.data)
    return <Problem problem={profile.problem} retry={() => void profile.reload()} />;
  if (!profile.data) return <Loading what="the profile" />;
  const data = profile.data;
  return (
    <>
      {saved > 0 ? <Notice kind="success">The profile is saved.</Notice> : null}
      {data.configured ? (
        <p className="muted small">Saved {formatDateTime(data.updated_at)}.</p>
      ) : (
        <Notice kind="info">
          No profile is set yet: a run would use the defaults drawn from the site, shown here.
          {canWrite ? " Save the profile to keep them or change them." : ""}
        </Notice>
      )}
      <ProfileSummary profile={data} />
      <p className="muted small">
        {data.workspace_keys.length > 0
          ? `The workspace's own keys ask ${data.workspace_keys.map((engine) => AI_ENGINE_NAME[engine]).join(", ")}; the other engines are asked with the service's keys.`
          : "The engines are asked with the service's keys; a workspace's owners and admins can set its own under Workspace."}
      </p>
      {canWrite ? (
        <ProfileForm
          key={data.updated_at ?? "defaults"}
          siteId={siteId}
          profile={data}
          onSaved={() => setSaved((n) => n + 1)}
        />
      ) : null}
    </>
  );
};

/** /sites/:id/visibility: the site's AI visibility tracking configuration. */
export const SiteVisibility = ({ id }: { id: string }) => {
  const api = useApi();
  const { search } = usePlace();
  const promptPage = pageOf(search.get("prompts"));
  const competitorPage = pageOf(search.get("competitors"));
  // a prompt or competitor added or removed changes the profile's counts
  const [changed, setChanged] = useState(0);
  const site = useLoad(
    async () => dataOf(await api.GET("/api/v1/sites/{id}", { params: { path: { id } } })),
    [api, id],
  );
  const hrefWith = (name: string, page: number) => {
    const query = new URLSearchParams(search);
    if (page > 1) query.set(name, String(page));
    else query.delete(name);
    const value = query.toString();
    return `/sites/${id}/visibility${value ? `?${value}` : ""}`;
  };
  const hrefWithAll = (changes: Record<string, string | null>) => {
    const query = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) query.delete(name);
      else query.set(name, value);
    }
    const value = query.toString();
    return `/sites/${id}/visibility${value ? `?${value}` : ""}`;
  };
  const data = site.data;
  return (
    <Shell>
      <PageTitle>{data ? `AI visibility: ${siteTitle(data)}` : "AI visibility"}</PageTitle>
      <p>
        <Link to={`/sites/${id}`}>← {data ? siteTitle(data) : "The site"}</Link>
      </p>
      <ReadOnlyNotice />
      {site.state === "error" && !data ? <Problem problem={site.problem} retry={() => void site.reload()} /> : null}
      {site.state === "loading" && !data ? <Loading what="the site" /> : null}
      {data ? (
        <>
          <section className="card" aria-labelledby="results-title">
            <h2 id="results-title">Results</h2>
            <VisibilityResults siteId={id} search={search} hrefWith={hrefWithAll} />
          </section>
          <section className="card" aria-labelledby="profile-title">
            <h2 id="profile-title">Profile</h2>
            <ProfileSection siteId={id} refresh={changed} />
          </section>
          <section className="card" aria-labelledby="prompts-title">
            <h2 id="prompts-title">Prompts</h2>
            <Prompts
              siteId={id}
              page={promptPage}
              hrefFor={(page) => hrefWith("prompts", page)}
              onChanged={() => setChanged((n) => n + 1)}
            />
          </section>
          <section className="card" aria-labelledby="competitors-title">
            <h2 id="competitors-title">Competitors</h2>
            <Competitors
              siteId={id}
              page={competitorPage}
              hrefFor={(page) => hrefWith("competitors", page)}
              onChanged={() => setChanged((n) => n + 1)}
            />
          </section>
        </>
      ) : null}
    </Shell>
  );
};
