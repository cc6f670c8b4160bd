import { AiCatalogDiscovery } from "@scan/audit";
import { AuditDiscovery, TextResource } from "@scan/contract";
import { z } from "zod";

/** What discovery stores on the audit: the summary the report shows, and the files the pages and checks read. */
export const StoredDiscovery = z.object({
  summary: AuditDiscovery,
  robotsTxt: TextResource,
  llmsTxt: TextResource,
  /** absent on audits discovered before the ai-catalog checks */
  aiCatalog: AiCatalogDiscovery.optional(),
});
export type StoredDiscovery = z.infer<typeof StoredDiscovery>;
