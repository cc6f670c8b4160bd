import { randomUUID } from "node:crypto";
import type { AlertMessage, SlackBlock } from "@scan/audit";
import type { AlertChannel, VisibilityAlert, VisibilityRateChange } from "@scan/contract";
import type { Db } from "@scan/db";
import { visibilityRuns } from "@scan/records";
import { versusPrevious } from "@scan/visibility";

type OnRunCompleted = visibilityRuns.OnRunCompleted;
type Tx = Parameters<OnRunCompleted>[0];

const ENGINE_NAMES: Record<string, string> = {
  chatgpt: "ChatGPT",
  claude: "Claude",
  perplexity: "Perplexity",
  gemini: "Gemini",
};

/** Where a person opens the run: the site's visibility page in the dashboard, with the run named. */
export const visibilityLink = (dashboardUrl: string, siteId: string, runId: string): string =>
  `${dashboardUrl.replace(/\/+$/, "")}/sites/${encodeURIComponent(siteId)}/visibility?run=${encodeURIComponent(runId)}`;

/**
 * The changes of a completed run against the previous completed run of its site: each engine's
 * mention and citation rate that Fisher's exact test finds changed (p < 0.05), none for noise.
 * Null when the site has no previous completed run.
 */
export const changesOf = async (
  tx: Tx,
  run: { id: string; siteId: string; engines: VisibilityRateChange["engine"][]; createdAt: Date },
): Promise<{ previousRunId: string; changes: VisibilityRateChange[] } | null> => {
  const previous = await tx.visibilityRun.findFirst({
    where: { siteId: run.siteId, status: "completed", createdAt: { lt: run.createdAt }, id: { not: run.id } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  if (!previous) return null;
  const select = { engine: true, brandMentioned: true, brandCited: true } as const;
  const [earlier, answered] = await Promise.all([
    tx.visibilitySample.findMany({ where: { runId: previous.id, status: "completed" }, select }),
    tx.visibilitySample.findMany({ where: { runId: run.id, status: "completed" }, select }),
  ]);
  const changes = versusPrevious(run.engines, earlier, answered).flatMap((row) =>
    (["mention", "citation"] as const).flatMap((rate): VisibilityRateChange[] => {
      const test = row[rate];
      if (!test.changed || test.direction === "flat") return [];
      return [
        {
          engine: row.engine,
          rate,
          previous: test.previous,
          current: test.current,
          p_value: test.p_value,
          direction: test.direction,
        },
      ];
    }),
  );
  return { previousRunId: previous.id, changes };
};

/**
 * What a run's completion writes beside it: one alert per channel of the site's audit schedule
 * (its signed webhook, its mail addresses, its Slack URL) when a rate changed by the test; nothing
 * when the site has no alert channel, no previous completed run, or only noise.
 */
export const visibilityAlertsOnCompletion =
  (dashboardUrl: string): OnRunCompleted =>
  async (tx, runId) => {
    const run = await tx.visibilityRun.findUnique({
      where: { id: runId },
      select: { id: true, siteId: true, workspaceId: true, engines: true, createdAt: true, completedAt: true },
    });
    if (!run) return;
    const schedule = await tx.auditSchedule.findUnique({
      where: { siteId: run.siteId },
      select: { alertUrl: true, alertEmails: true, alertSlackUrl: true },
    });
    if (!schedule) return;
    const targets: Array<{ channel: AlertChannel; url: string }> = [
      ...(schedule.alertUrl ? [{ channel: "webhook" as const, url: schedule.alertUrl }] : []),
      ...(schedule.alertEmails.length > 0 ? [{ channel: "email" as const, url: schedule.alertEmails.join(", ") }] : []),
      ...(schedule.alertSlackUrl ? [{ channel: "slack" as const, url: schedule.alertSlackUrl }] : []),
    ];
    if (targets.length === 0) return;
    const compared = await changesOf(tx, run);
    if (!compared || compared.changes.length === 0) return;
    const site = await tx.site.findUnique({ where: { id: run.siteId }, select: { url: true } });
    const detectedAt = (run.completedAt ?? new Date()).toISOString();
    await visibilityRuns.insertAlerts(
      tx,
      targets.map(({ channel, url }) => {
        const id = randomUUID();
        const body: VisibilityAlert = {
          event: "visibility.changed",
          alert_id: id,
          site_id: run.siteId,
          site_url: site?.url ?? "",
          run_id: run.id,
          previous_run_id: compared.previousRunId,
          dashboard_url: visibilityLink(dashboardUrl, run.siteId, run.id),
          run_api_path: `/api/v1/visibility/runs/${run.id}`,
          changes: compared.changes,
          detected_at: detectedAt,
        };
        return {
          id,
          runId: run.id,
          previousRunId: compared.previousRunId,
          siteId: run.siteId,
          workspaceId: run.workspaceId,
          channel,
          url,
          body,
        };
      }),
    );
  };

/** The ids of a run's alerts still to deliver: queued after the transaction that stored them. */
export const pendingAlertsOf = async (db: Db, runId: string): Promise<string[]> =>
  (await db.visibilityAlert.findMany({ where: { runId, state: "pending" }, select: { id: true } })).map((a) => a.id);

const percent = (rate: number | null) => (rate === null ? "–" : `${Math.round(rate * 100)} %`);

/** One line per rate that changed: the engine, the rate, from what to what with their intervals, and p. */
export const changeLine = (change: VisibilityRateChange): string => {
  const side = (r: VisibilityRateChange["previous"]) =>
    `${percent(r.rate)} (${r.successes}/${r.n}, 95 % CI ${percent(r.low)}–${percent(r.high)})`;
  const what = change.rate === "mention" ? "mention rate" : "citation rate";
  const p = change.p_value < 0.001 ? "p < 0.001" : `p = ${change.p_value.toFixed(3)}`;
  return `${ENGINE_NAMES[change.engine] ?? change.engine} ${what} ${change.direction === "up" ? "rose" : "fell"}: ${side(change.previous)} → ${side(change.current)}, ${p}`;
};

const siteHost = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

const escapeSlack = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The visibility alert as a person reads it, by mail or in Slack, linking to the run in the dashboard. */
export const visibilityAlertMessage = (alert: VisibilityAlert): AlertMessage => {
  const site = siteHost(alert.site_url);
  const subject = `${site}: AI visibility changed in ${alert.changes.length === 1 ? "1 rate" : `${alert.changes.length} rates`} since the last run`;
  const lines = alert.changes.map(changeLine);
  const text = [
    `The latest visibility run of ${alert.site_url} differs from the previous run beyond chance (Fisher's exact test, p < 0.05).`,
    "",
    ...lines.map((line) => `  - ${line}`),
    "",
    `Open the run: ${alert.dashboard_url}`,
    `Over the API: GET ${alert.run_api_path}`,
    "",
    "You get this because the site's audit schedule sends alerts here; change it on the site's Schedule tab.",
  ].join("\n");
  const blocks: SlackBlock[] = [
    { type: "header", text: { type: "plain_text", text: subject.slice(0, 150) } },
    ...lines.map((line): SlackBlock => ({ type: "section", text: { type: "mrkdwn", text: escapeSlack(line) } })),
    { type: "section", text: { type: "mrkdwn", text: `<${alert.dashboard_url}|Open the run in the dashboard>` } },
    { type: "context", elements: [{ type: "mrkdwn", text: escapeSlack(`${alert.site_url} · visibility run`) }] },
  ];
  return { subject, text, slack: { text: `${subject}. Open the run: ${alert.dashboard_url}`, blocks } };
};
