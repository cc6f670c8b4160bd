import type { ImportKeywordsToolInput, KeywordImportResult } from "@scan/contract";
import type { z } from "zod";
import { ownerOf } from "../access/authenticate";
import type { ToolAnswer, ToolContext } from "../scans";
import type { KeywordService } from "../sites";

export type KeywordTools = {
  /** aeo_import_keywords: a site's keywords from Search Console's queries export, all or nothing. */
  importCsv: (
    input: z.output<typeof ImportKeywordsToolInput>,
    context: ToolContext,
  ) => Promise<ToolAnswer<KeywordImportResult>>;
};

const SKIPS_SHOWN = 10;

/** What an import did, in lines a reader takes in at once: counts, then the skipped queries and why. */
export const importSummary = (result: KeywordImportResult): string => {
  const head = `Read ${result.rows} ${result.rows === 1 ? "query" : "queries"}: ${result.created} newly tracked, ${result.updated} updated, ${result.skipped.length} skipped.`;
  const skips = result.skipped.slice(0, SKIPS_SHOWN).map((skip) => `- row ${skip.row} "${skip.query}": ${skip.reason}`);
  const more = result.skipped.length > SKIPS_SHOWN ? [`- and ${result.skipped.length - SKIPS_SHOWN} more`] : [];
  return [head, ...skips, ...more].join("\n");
};

/** The keyword tools over the same service as the REST import: the key's workspace, the same reading of the file. */
export const createKeywordTools = ({ keywords }: { keywords: KeywordService }): KeywordTools => ({
  importCsv: async ({ site_id, csv }, { caller }) => {
    const result = await keywords.importCsv(ownerOf(caller), site_id.toLowerCase(), csv);
    return { data: result, summary: importSummary(result) };
  },
});
