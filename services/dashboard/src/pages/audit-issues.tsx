import { type AuditIssue, type AuditIssues, type AuditView, dataOf } from "@scan/client";
import { type FormEvent, useId, useState } from "react";
import { Field, Loading, Problem } from "../components/ui";
import { formatNumber } from "../format";
import { useLoad } from "../load";
import { useApi } from "../session";

/** pages of an issue shown at once */
const ISSUE_PAGES_LIMIT = 20;

const SEVERITY_BADGE: Record<AuditIssue["severity"], string> = {
  critical: "badge-fail",
  warning: "badge-warn",
  info: "badge-skip",
};
const STATE_TEXT: Record<NonNullable<AuditIssue["state"]>, string> = {
  new: "New",
  persisting: "Persisting",
  fixed: "Fixed",
};
const CATEGORY_TEXT: Record<AuditIssue["category"], string> = { seo: "SEO", aeo: "AEO", geo: "GEO" };

const noun = (word: string, count: number) => (count === 1 ? word : `${word}s`);

const percent = (share: number | null) => (share === null ? "" : `${Math.round(share * 1000) / 10} %`);

/** "24 pages, 12 % of the site", or for a fixed issue what it was. */
const reach = (issue: AuditIssue): string => {
  if (issue.state === "fixed")
    return `fixed: was on ${issue.previous_pages ?? 0} ${issue.previous_pages === 1 ? "page" : "pages"}`;
  const pages = `${formatNumber(issue.pages)} ${issue.pages === 1 ? "page" : "pages"}`;
  const share = issue.share === null ? "" : `, ${percent(issue.share)} of the site`;
  const before =
    issue.state === "persisting" && issue.previous_pages !== null && issue.previous_pages !== issue.pages
      ? ` (${issue.previous_pages} before)`
      : "";
  return `${pages}${share}${before}`;
};

/** One issue's pages, each with its finding: paged and searched through the API, as the row is opened. */
const IssuePages = ({ auditId, issue, id }: { auditId: string; issue: AuditIssue; id: string }) => {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const pages = useLoad(async () => {
    const result = await api.GET("/api/v1/audits/{id}/issues/{check}/pages", {
      params: {
        path: { id: auditId, check: issue.check },
        query: { page, limit: ISSUE_PAGES_LIMIT, ...(q ? { q } : {}) },
      },
    });
    const items = dataOf(result);
    const meta = result.data?.meta ?? { page, limit: ISSUE_PAGES_LIMIT, total: items.length, hasMore: false };
    return { items, meta };
  }, [api, auditId, issue.check, page, q]);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setQ(typed.trim());
  };
  const data = pages.data;
  const last = data ? Math.max(1, Math.ceil(data.meta.total / ISSUE_PAGES_LIMIT)) : 1;
  return (
    <div className="issue-pages" id={id}>
      <form className="issue-search" onSubmit={search}>
        <Field label={`Search the pages of “${issue.title}”`}>
          {(props) => (
            <input {...props} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={200} />
          )}
        </Field>
        <button type="submit" className="button secondary small">
          Search
        </button>
      </form>
      {pages.state === "error" ? <Problem problem={pages.problem} retry={() => void pages.reload()} /> : null}
      {!data && pages.state === "loading" ? <Loading what="the pages" /> : null}
      {data ? (
        <>
          <p className="muted small" role="status">
            {data.meta.total === 0
              ? q
                ? `No page matches “${q}”.`
                : "On no page of this audit."
              : `${formatNumber(data.meta.total)} ${noun(issue.scope === "site" ? "finding" : "page", data.meta.total)}${q ? ` matching “${q}”` : ""}.`}
          </p>
          <ul className="issue-page-list">
            {data.items.map((item) => (
              <li key={`${item.url} ${item.finding}`}>
                <span className="url-line" title={item.url}>
                  {item.url}
                </span>
                <span className="issue-finding">
                  {item.status === "warn" ? <span className="badge badge-warn">Warning</span> : null} {item.finding}
                </span>
                {item.related.length > 0 ? (
                  <details>
                    <summary>
                      {item.related.length} {item.related.length === 1 ? "page" : "pages"} involved
                    </summary>
                    <ul className="pages">
                      {item.related.map((url) => (
                        <li key={url} className="url-line" title={url}>
                          {url}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
          {last > 1 ? (
            <nav className="pager" aria-label={`Pages of “${issue.title}”`}>
              <button
                type="button"
                className="button secondary small"
                disabled={page <= 1}
                onClick={() => setPage(page - 1)}
              >
                ← Previous
              </button>
              <span>
                Page {page} of {last}
              </span>
              <button
                type="button"
                className="button secondary small"
                disabled={!data.meta.hasMore}
                onClick={() => setPage(page + 1)}
              >
                Next →
              </button>
            </nav>
          ) : null}
        </>
      ) : null}
    </div>
  );
};

const IssueRow = ({
  auditId,
  issue,
  open,
  toggle,
}: {
  auditId: string;
  issue: AuditIssue;
  open: boolean;
  toggle: () => void;
}) => {
  const panel = useId();
  const fixed = issue.state === "fixed";
  return (
    <li className={`issue issue-${issue.severity}${fixed ? " issue-fixed" : ""}`}>
      <div className="issue-head">
        {fixed ? (
          <span className="issue-title">{issue.title}</span>
        ) : (
          <button
            type="button"
            className="issue-toggle"
            aria-expanded={open}
            aria-controls={open ? panel : undefined}
            onClick={toggle}
          >
            <span aria-hidden="true" className="issue-caret">
              {open ? "▾" : "▸"}
            </span>{" "}
            {issue.title}
          </button>
        )}
        <span className={`badge ${SEVERITY_BADGE[issue.severity]}`}>{issue.severity}</span>
        {issue.state ? <span className={`badge badge-state-${issue.state}`}>{STATE_TEXT[issue.state]}</span> : null}
      </div>
      <p className="issue-reach">
        {reach(issue)}
        <span className="muted">
          {" "}
          · {CATEGORY_TEXT[issue.category]} {issue.scope === "site" ? "site check" : "page check"} {issue.check}
        </span>
      </p>
      {open ? <IssuePages auditId={auditId} issue={issue} id={panel} /> : null}
    </li>
  );
};

type Filter = { category: AuditIssue["category"] | ""; severity: AuditIssue["severity"] | "" };

/**
 * The audit issue by issue, ahead of the rest of its report: each failing check with its pages
 * and share of the site, new, persisting or fixed against the previous audit of the same mode,
 * filtered by category and severity here (the rollup is read once), a row opening to its pages.
 */
export const AuditIssueList = ({ audit }: { audit: AuditView }) => {
  const api = useApi();
  const [filter, setFilter] = useState<Filter>({ category: "", severity: "" });
  // which rows are open, kept here so a row filtered away and back is as it was
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (check: string) =>
    setOpened((was) => {
      const next = new Set(was);
      if (!next.delete(check)) next.add(check);
      return next;
    });
  const rollup = useLoad(
    async (): Promise<AuditIssues> =>
      dataOf(await api.GET("/api/v1/audits/{id}/issues", { params: { path: { id: audit.id } } })),
    [api, audit.id, audit.status],
  );
  const data = rollup.data;
  const kept = (data?.issues ?? []).filter(
    (issue) =>
      (filter.category === "" || issue.category === filter.category) &&
      (filter.severity === "" || issue.severity === filter.severity),
  );
  const open = data?.issues.filter((issue) => issue.state !== "fixed") ?? [];
  const count = (state: AuditIssue["state"]) => open.filter((issue) => issue.state === state).length;
  return (
    <section aria-labelledby="audit-issues-title" className="audit-issues">
      <h4 id="audit-issues-title">Issues</h4>
      {rollup.state === "error" ? <Problem problem={rollup.problem} retry={() => void rollup.reload()} /> : null}
      {!data && rollup.state === "loading" ? <Loading what="the issues" /> : null}
      {data ? (
        <>
          <p className="muted small">
            {open.length === 0
              ? "No check fails or warns on this audit's pages."
              : `${open.length} ${open.length === 1 ? "check fails or warns" : "checks fail or warn"} across ${formatNumber(data.pages_judged)} judged ${data.pages_judged === 1 ? "page" : "pages"}.`}{" "}
            {data.previous_audit_id
              ? `Since the previous ${data.mode} audit: ${count("new")} new, ${count("persisting")} persisting, ${data.issues.length - open.length} fixed.`
              : `No earlier ${data.mode} audit of this site to compare with.`}
            {data.complete ? "" : " Counted from the pages done so far; the site checks run when the audit completes."}
          </p>
          <div className="filters">
            <Field label="Category">
              {(props) => (
                <select
                  {...props}
                  value={filter.category}
                  onChange={(e) => setFilter({ ...filter, category: e.target.value as Filter["category"] })}
                >
                  <option value="">All</option>
                  <option value="seo">SEO</option>
                  <option value="aeo">AEO</option>
                  <option value="geo">GEO</option>
                </select>
              )}
            </Field>
            <Field label="Severity">
              {(props) => (
                <select
                  {...props}
                  value={filter.severity}
                  onChange={(e) => setFilter({ ...filter, severity: e.target.value as Filter["severity"] })}
                >
                  <option value="">All</option>
                  <option value="critical">Critical</option>
                  <option value="warning">Warning</option>
                  <option value="info">Info</option>
                </select>
              )}
            </Field>
          </div>
          {kept.length === 0 && data.issues.length > 0 ? (
            <p className="muted">No issue of this category and severity.</p>
          ) : null}
          <ul className="issues">
            {kept.map((issue) => (
              <IssueRow
                key={issue.check}
                auditId={audit.id}
                issue={issue}
                open={opened.has(issue.check)}
                toggle={() => toggle(issue.check)}
              />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
};
