import { type AuditAlertView, dataOf } from "@scan/client";
import { Empty, Grade, Loading, Pager, Problem } from "../components/ui";
import { formatDateTime } from "../format";
import { useLoad } from "../load";
import { Link } from "../router";
import { useApi } from "../session";

const LIST_SIZE = 10;
const PAGES_SHOWN = 5;

type Reason = AuditAlertView["reasons"][number];

const ReasonText = ({ reason }: { reason: Reason }) => {
  if (reason.kind === "score_drop")
    return (
      <>
        The overall score fell {reason.points} points, from {reason.before} to {reason.after}.
      </>
    );
  if (reason.kind === "grade_lower")
    return (
      <>
        The grade fell from <Grade grade={reason.before} /> to <Grade grade={reason.after} />.
      </>
    );
  return (
    <>
      <strong>{reason.title}</strong> <span className="muted small">({reason.check})</span> passed before and fails now
      {reason.scope === "page" ? " on some pages" : ""}
      {reason.pages.length > 0 ? (
        <>
          {" "}
          on:
          <ul className="pages">
            {reason.pages.slice(0, PAGES_SHOWN).map((page) => (
              <li key={page} className="url">
                {page}
              </li>
            ))}
            {reason.pages.length > PAGES_SHOWN ? (
              <li className="muted">and {reason.pages.length - PAGES_SHOWN} more</li>
            ) : null}
          </ul>
        </>
      ) : (
        "."
      )}
    </>
  );
};

const DELIVERY_TEXT: Record<AuditAlertView["delivery"]["state"], string> = {
  delivered: "Delivered",
  pending: "Sending",
  failed: "Not delivered",
};

const CHANNEL_TEXT: Record<AuditAlertView["delivery"]["channel"], string> = {
  email: "by mail",
  slack: "in Slack",
  webhook: "by signed webhook",
};

const Delivery = ({ delivery }: { delivery: AuditAlertView["delivery"] }) => (
  <p className="small alert-delivery">
    <span className={`badge badge-alert-${delivery.state}`}>{DELIVERY_TEXT[delivery.state]}</span>{" "}
    {CHANNEL_TEXT[delivery.channel]}{" "}
    {delivery.state === "delivered"
      ? `to ${delivery.to} at ${formatDateTime(delivery.delivered_at)}`
      : `to ${delivery.to}, ${delivery.attempts} ${delivery.attempts === 1 ? "attempt" : "attempts"}${
          delivery.last_error ? `; last: ${delivery.last_error}` : ""
        }`}
  </p>
);

/**
 * One entry per regressed audit: the API lists one alert per channel (mail, Slack, webhook) with
 * the same facts, so those of one audit next to each other are shown once, with each delivery.
 */
const byAudit = (items: readonly AuditAlertView[]) => {
  const groups: Array<{ alert: AuditAlertView; deliveries: AuditAlertView["delivery"][] }> = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (last && last.alert.audit_id === item.audit_id) last.deliveries.push(item.delivery);
    else groups.push({ alert: item, deliveries: [item.delivery] });
  }
  return groups;
};

/** The site's regression alerts, newest first: what got worse, against which audit, and whether the webhook got through. */
export const SiteAlerts = ({
  siteId,
  page,
  refresh,
  hrefFor,
  auditHref,
}: {
  siteId: string;
  page: number;
  /** changes when an audit finished, which may have raised an alert */
  refresh: number;
  hrefFor: (page: number) => string;
  auditHref: (auditId: string) => string;
}) => {
  const api = useApi();
  const alerts = useLoad(async () => {
    const result = await api.GET("/api/v1/sites/{id}/alerts", {
      params: { path: { id: siteId }, query: { page, limit: LIST_SIZE } },
    });
    const items = dataOf(result);
    return { items, meta: result.data?.meta ?? { page, limit: LIST_SIZE, total: items.length, hasMore: false } };
  }, [api, siteId, page, refresh]);
  if (alerts.state === "error") return <Problem problem={alerts.problem} retry={() => void alerts.reload()} />;
  if (!alerts.data) return <Loading what="the alerts" />;
  if (alerts.data.items.length === 0)
    return (
      <Empty title="No regression alerts.">
        <p>
          An alert is raised when a completed audit is worse than the site's previous audit of the same mode (a lower
          score or grade, or a check failing that passed) while the schedule below mails someone, posts to Slack or has
          a signed webhook.
        </p>
      </Empty>
    );
  return (
    <>
      <ol className="alerts">
        {byAudit(alerts.data.items).map(({ alert, deliveries }) => (
          <li key={alert.id} className="alert-item">
            <div className="alert-head">
              <h3 className="alert-title">{formatDateTime(alert.created_at)}</h3>
              <span>
                {alert.mode} audit: overall {alert.scores.before.overall} → {alert.scores.after.overall}, grade{" "}
                <Grade grade={alert.grade.before} /> → <Grade grade={alert.grade.after} />
              </span>
            </div>
            <ul className="reasons">
              {alert.reasons.map((reason) => (
                <li key={reason.kind === "check_failing" ? reason.check : reason.kind}>
                  <ReasonText reason={reason} />
                </li>
              ))}
            </ul>
            <p className="small">
              <Link
                to={auditHref(alert.audit_id)}
                aria-label={`Open the audit that regressed, alert of ${formatDateTime(alert.created_at)}`}
              >
                Open the audit that regressed
              </Link>{" "}
              ·{" "}
              <Link
                to={auditHref(alert.previous_audit_id)}
                aria-label={`Open the audit before it, alert of ${formatDateTime(alert.created_at)}`}
              >
                the audit before it
              </Link>
            </p>
            {deliveries.map((delivery) => (
              <Delivery key={delivery.channel} delivery={delivery} />
            ))}
          </li>
        ))}
      </ol>
      <Pager {...alerts.data.meta} hrefFor={hrefFor} />
    </>
  );
};
