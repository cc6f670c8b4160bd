import type { DataOf, ReportBrandingView } from "@scan/client";
import { TableWrap } from "../components/ui";
import { formatDateTime, formatNumber } from "../format";

type VisibilityRunView = DataOf<"getVisibilityRun">;

/** What the print view of a visibility run draws (the gateway's renderer answers the same shape). */
export type VisibilityPrintData = {
  kind: "visibility";
  generated_at: string;
  branding: ReportBrandingView | null;
  run: VisibilityRunView;
  site: { id: string; url: string; name: string };
  /** the brand's names and own hosts */
  brand: { names: string[]; domains: string[] };
};

type Measures = NonNullable<VisibilityRunView["measures"]>;
type Rate = Measures["engines"][number]["mention_rate"];
type Comparison = NonNullable<Measures["versus_previous"]>["engines"][number]["mention"];

const ENGINE: Record<string, string> = {
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};
const engineName = (engine: string) => ENGINE[engine] ?? engine;

const percent = (value: number | null) => (value === null ? "–" : `${Math.round(value * 100)} %`);

/** "42 % (28–57 %), 12 answers": the rate with its Wilson 95 % interval and the answers it stands on. */
export const rateText = (rate: Rate): string =>
  rate.n === 0 || rate.rate === null
    ? "no answers"
    : `${Math.round(rate.rate * 100)} % (${Math.round((rate.low ?? 0) * 100)}–${Math.round((rate.high ?? 0) * 100)} %), ${formatNumber(rate.n)} ${rate.n === 1 ? "answer" : "answers"}`;

/** A change is named only where Fisher's test calls it one. */
const changeText = (change: Comparison | undefined): string => {
  if (!change) return "–";
  if (!change.changed) return "no significant change";
  const arrow = change.direction === "up" ? "up" : "down";
  return `${arrow} from ${percent(change.previous.rate)} to ${percent(change.current.rate)} (p = ${change.p_value === null ? "–" : change.p_value.toPrecision(2)})`;
};

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
};

/** The host is one of the brand's, or below one. */
const ownHost = (host: string, domains: string[]) =>
  domains.some((domain) => host === domain || host.endsWith(`.${domain}`));

const OWN = " (your site)";

/** The body of a visibility run's client report, under the letterhead. */
export const VisibilityPrint = ({ data }: { data: VisibilityPrintData }) => {
  const { run, site, brand } = data;
  const measures = run.measures;
  const brandName = brand.names[0] ?? site.name;
  const domains = brand.domains.map((domain) => domain.toLowerCase());
  return (
    <>
      <h1>AI visibility of {site.name}</h1>
      <p className="print-muted">
        {site.url} · run of {formatDateTime(run.completed_at ?? run.created_at)} · engines{" "}
        {run.engines.map(engineName).join(", ")} · {formatNumber(run.progress.done)} answers, {run.samples_per_prompt}{" "}
        per prompt and engine
      </p>
      <section>
        <h2>How often the engines name and cite {brandName}</h2>
        <p className="print-muted">
          The share of answers that name the brand (mention) and that cite one of its pages (citation), with the 95 %
          interval the answers allow.
          {measures?.versus_previous
            ? " The change is against the site's previous run, named only where Fisher's exact test (p < 0.05) calls it one."
            : " This is the site's first completed run: there is nothing to compare with."}
        </p>
        <TableWrap label="Mention and citation rates by engine">
          <table className="print-table">
            <thead>
              <tr>
                <th scope="col">Engine</th>
                <th scope="col">Mentioned</th>
                <th scope="col">Cited</th>
                <th scope="col">Average position</th>
              </tr>
            </thead>
            <tbody>
              {(measures?.engines ?? []).map((row) => (
                <tr key={row.engine}>
                  <th scope="row">{engineName(row.engine)}</th>
                  <td className="print-nowrap">{rateText(row.mention_rate)}</td>
                  <td className="print-nowrap">{rateText(row.citation_rate)}</td>
                  <td>{row.average_position === null ? "–" : row.average_position.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        {measures?.versus_previous ? <h3>Change since the previous run</h3> : null}
        {measures?.versus_previous ? (
          <TableWrap label="Change since the previous run">
            <table className="print-table">
              <thead>
                <tr>
                  <th scope="col">Engine</th>
                  <th scope="col">Mentions</th>
                  <th scope="col">Citations</th>
                </tr>
              </thead>
              <tbody>
                {measures.versus_previous.engines.map((row) => (
                  <tr key={row.engine}>
                    <th scope="row">{engineName(row.engine)}</th>
                    <td>{changeText(row.mention)}</td>
                    <td>{changeText(row.citation)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>
      <section>
        <h2>Share of voice</h2>
        <p className="print-muted">
          Each company's answers naming it over all namings of the brand and its competitors, every engine together.
        </p>
        <TableWrap label="Share of voice">
          <table className="print-table">
            <thead>
              <tr>
                <th scope="col">Company</th>
                <th scope="col">Answers naming it</th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {(measures?.share_of_voice ?? []).map((row) => (
                <tr key={row.name}>
                  <th scope="row">
                    {row.name}
                    {row.name === brandName ? " (your brand)" : ""}
                  </th>
                  <td>{formatNumber(row.mentions)}</td>
                  <td>{percent(row.share)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
      <section>
        <h2>Most cited domains</h2>
        {(measures?.top_domains ?? []).length === 0 ? (
          <p>No answer cited a page.</p>
        ) : (
          <TableWrap label="Most cited domains">
            <table className="print-table">
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col">Citations</th>
                </tr>
              </thead>
              <tbody>
                {(measures?.top_domains ?? []).map((row) => (
                  <tr key={row.key} className={ownHost(row.key, domains) ? "print-own" : undefined}>
                    <td className="print-url">
                      {row.key}
                      {ownHost(row.key, domains) ? OWN : ""}
                    </td>
                    <td>{formatNumber(row.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      <section>
        <h2>Most cited pages</h2>
        {(measures?.top_pages ?? []).length === 0 ? (
          <p>No answer cited a page.</p>
        ) : (
          <TableWrap label="Most cited pages">
            <table className="print-table">
              <thead>
                <tr>
                  <th scope="col">Page</th>
                  <th scope="col">Citations</th>
                </tr>
              </thead>
              <tbody>
                {(measures?.top_pages ?? []).map((row) => (
                  <tr key={row.key} className={ownHost(hostOf(row.key), domains) ? "print-own" : undefined}>
                    <td className="print-url">
                      {row.key}
                      {ownHost(hostOf(row.key), domains) ? OWN : ""}
                    </td>
                    <td>{formatNumber(row.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
    </>
  );
};
