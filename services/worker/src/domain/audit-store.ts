import { AuditDiscovery, TextResource } from "@scan/contract";
import { z } from "zod";

/** What discovery stores on the audit: the summary the report shows, and the files the pages and checks read. */
export const StoredDiscovery = z.object({
  summary: AuditDiscovery,
  robotsTxt: TextResource,
  llmsTxt: TextResource,
});
export type StoredDiscovery = z.infer<typeof StoredDiscovery>;
