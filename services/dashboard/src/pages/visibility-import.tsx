import { dataOf } from "@scan/client";
import { CsvImport } from "../components/csv-import";
import { useApi } from "../session";

/** A request's body that is the CSV as it is (text/csv), not a JSON string. */
const csvBody = (csv: string) => ({
  body: csv,
  headers: { "Content-Type": "text/csv" },
  bodySerializer: (body: string) => body,
});

/** Imports prompts from a CSV file chosen or pasted: all or nothing, each faulty row named. */
export const PromptImport = ({ siteId, onImported }: { siteId: string; onImported: (message: string) => void }) => {
  const api = useApi();
  return (
    <CsvImport
      title="Import prompts from CSV"
      about={
        <>
          The first row names the columns: <code>text</code> (required), <code>topic</code>, <code>tags</code> (between{" "}
          <code>|</code>), <code>locale</code>. All or nothing: a faulty row refuses the whole file; prompts tracked
          already are skipped.
        </>
      }
      placeholder={"text,topic,tags,locale\nBest widget for boats?,marine,buying|boats,en-GB"}
      submitLabel="Import prompts"
      onImported={onImported}
      send={async (csv) => {
        const answer = dataOf(
          await api.POST("/api/v1/sites/{id}/prompts/import", {
            params: { path: { id: siteId } },
            ...csvBody(csv),
          }),
        );
        const skipped = answer.skipped.length;
        const message = `${answer.imported} ${answer.imported === 1 ? "prompt" : "prompts"} imported from ${answer.rows} ${
          answer.rows === 1 ? "row" : "rows"
        }${skipped > 0 ? `; ${skipped} skipped, tracked already or repeated in the file` : ""}.`;
        return { message, changed: answer.imported > 0 };
      }}
    />
  );
};

const SKIPS_SHOWN = 5;

/** Imports a site's keywords from Search Console's queries export: all or nothing, each faulty row named. */
export const KeywordImport = ({ siteId, onImported }: { siteId: string; onImported: (message: string) => void }) => {
  const api = useApi();
  return (
    <CsvImport
      title="Import keywords from Search Console"
      about={
        <>
          In Search Console, open Performance, choose the period, then Export → Download CSV, and pick{" "}
          <code>Queries.csv</code> from the download. Each query becomes a keyword with its average position, clicks and
          impressions; a keyword tracked already gets the new position and its trend. All or nothing: a faulty row
          refuses the whole file.
        </>
      }
      placeholder={"Top queries,Clicks,Impressions,CTR,Position\nacme widgets,40,900,4.44%,2.6"}
      submitLabel="Import keywords"
      onImported={onImported}
      send={async (csv) => {
        const answer = dataOf(
          await api.POST("/api/v1/sites/{id}/keywords/import", {
            params: { path: { id: siteId } },
            ...csvBody(csv),
          }),
        );
        const skipped = answer.skipped.length;
        const queries = `${answer.rows} ${answer.rows === 1 ? "query" : "queries"}`;
        const shown = answer.skipped.slice(0, SKIPS_SHOWN).map((skip) => `row ${skip.row}: ${skip.reason}`);
        if (skipped > SKIPS_SHOWN) shown.push(`and ${skipped - SKIPS_SHOWN} more`);
        const message = `Read ${queries}: ${answer.created} newly tracked, ${answer.updated} updated${
          skipped > 0 ? `, ${skipped} skipped (${shown.join("; ")})` : ""
        }.`;
        return { message, changed: answer.created + answer.updated > 0 };
      }}
    />
  );
};
