/**
 * Gives a user's site on the audited loopback site (audit-sites.ts) a real history through the
 * API: a schedule with an alert URL and a Slack webhook, a quick audit that leaves /old-guide out, then a quick
 * audit that finds the broken link to it: a regression, stored as an alert per channel and delivered
 * to the site's /hooks/alerts and its stand-in Slack hook. The browser tests and the screenshot script share it.
 */

type Json = Record<string, any>;

export type AuditHistory = { siteId: string; before: string; after: string };

const AUDIT_DEADLINE_MS = 60_000;

export const auditApi = (gateway: string, token: string) => {
  const call = async (path: string, body?: unknown, method = body === undefined ? "GET" : "POST"): Promise<Json> => {
    const response = await fetch(`${gateway}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as Json).data as Json;
  };

  /** Waits for the audit to finish (a real crawl of four loopback pages: a second or two). */
  const finished = async (id: string): Promise<Json> => {
    const deadline = Date.now() + AUDIT_DEADLINE_MS;
    for (;;) {
      const audit = await call(`/api/v1/audits/${id}`);
      if (["completed", "failed", "cancelled"].includes(audit.status)) return audit;
      if (Date.now() > deadline) throw new Error(`audit ${id} still ${audit.status} after ${AUDIT_DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const audit = async (siteId: string, body: Json): Promise<string> => {
    const started = await call(`/api/v1/sites/${siteId}/audits`, body);
    const done = await finished(started.id as string);
    if (done.status !== "completed") throw new Error(`audit ${done.id} ended ${done.status}`);
    return done.id as string;
  };

  /** The site of `origin` (made if new), a weekly schedule alerting to it, and two audits: the second regressed. */
  const regressedSite = async (origin: string, name?: string): Promise<AuditHistory> => {
    const site = await call("/api/v1/sites", { url: `${origin}/`, ...(name ? { name } : {}) });
    const siteId = site.id as string;
    await call(`/api/v1/sites/${siteId}/schedule`, {
      frequency: "weekly",
      mode: "quick",
      alert_url: `${origin}/hooks/alerts`,
      alert_slack_url: `${origin}/services/T0E2E/B0E2E/slacktokenvalue`,
      alert_drop: 5,
    });
    const before = await audit(siteId, { mode: "quick", exclude: ["/old-guide"] });
    const after = await audit(siteId, { mode: "quick" });
    return { siteId, before, after };
  };

  return { call, audit, finished, regressedSite };
};
