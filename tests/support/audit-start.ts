import { api } from "./stack";

type Json = Record<string, any>;

/**
 * Adds `siteUrl` as a site of the key's holder and starts a quick audit of it through the API;
 * answers both ids once the audit was accepted (202).
 */
export const startQuickAudit = async (
  gatewayUrl: string,
  key: string,
  siteUrl: string,
): Promise<{ siteId: string; auditId: string }> => {
  const headers = { "x-api-key": key };
  const created = await api(gatewayUrl, "/api/v1/sites", { body: { url: siteUrl }, headers });
  const siteId = (created.body as Json).data.id as string;
  const started = await api(gatewayUrl, `/api/v1/sites/${siteId}/audits`, { body: { mode: "quick" }, headers });
  expect(started.status).toBe(202);
  return { siteId, auditId: (started.body as Json).data.id as string };
};
