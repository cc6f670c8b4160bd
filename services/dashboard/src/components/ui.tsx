import { type ApiProblem, waitInWords } from "@scan/client";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Link, usePlace } from "../router";

/** The page's title; focused when the page opens, so a screen reader hears where it is. */
export const PageTitle = ({ children, actions }: { children: ReactNode; actions?: ReactNode }) => {
  const heading = useRef<HTMLHeadingElement>(null);
  const { path } = usePlace();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is a new page
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [path]);
  return (
    <div className="page-title">
      <h1 ref={heading} tabIndex={-1}>
        {children}
      </h1>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
};

export const Loading = ({ what }: { what: string }) => (
  <p className="state state-loading" role="status">
    <span className="spinner" aria-hidden="true" /> Loading {what}…
  </p>
);

/** What went wrong and what to do about it. */
const adviceFor = (problem: ApiProblem): string => {
  if (problem.hint) return problem.hint;
  if (problem.status === 0) return "Check your connection and that the service is running, then try again.";
  if (problem.status === 401) return "Sign in again.";
  if (problem.status === 403) return "Your account is not allowed to do this; ask an operator of this service.";
  if (problem.status === 404) return "It may have been deleted, or belong to another account.";
  if (problem.status === 429)
    return problem.retryAfterS
      ? `Too many requests: try again in ${waitInWords(problem.retryAfterS)}.`
      : "Too many requests: wait a moment, then try again.";
  if (problem.status >= 500)
    return "The service has a problem; try again in a minute. If it goes on, tell its operator.";
  return "Check what you entered, then try again.";
};

export const Problem = ({ problem, retry, title }: { problem: ApiProblem; retry?: () => void; title?: string }) => (
  <div className="state state-error" role="alert">
    <p className="state-title">{title ?? problem.message}</p>
    {title ? <p>{problem.message}</p> : null}
    <p>{adviceFor(problem)}</p>
    {retry ? (
      <button type="button" className="button secondary" onClick={retry}>
        Try again
      </button>
    ) : null}
  </div>
);

export const Empty = ({ title, children }: { title: string; children?: ReactNode }) => (
  <div className="state state-empty">
    <p className="state-title">{title}</p>
    {children}
  </div>
);

export const Notice = ({ kind, children }: { kind: "success" | "warning" | "info"; children: ReactNode }) => (
  <div className={`notice notice-${kind}`} role={kind === "warning" ? "alert" : "status"}>
    {children}
  </div>
);

type PagerProps = { page: number; hasMore: boolean; total: number; limit: number; hrefFor: (page: number) => string };

/** Previous / next links with where the list stands. */
export const Pager = ({ page, hasMore, total, limit, hrefFor }: PagerProps) => {
  if (total <= limit && page === 1) return null;
  const last = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span aria-hidden="true" />
      )}
      <span>
        Page {page} of {last}
      </span>
      {hasMore ? (
        <Link to={hrefFor(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span aria-hidden="true" />
      )}
    </nav>
  );
};

const STATUS_TEXT: Record<string, string> = {
  queued: "Queued",
  running: "Running",
  completed: "Done",
  failed: "Failed",
  discovering: "Discovering",
  finalizing: "Finalizing",
  cancelled: "Cancelled",
  pass: "Pass",
  warn: "Warning",
  fail: "Fail",
  skip: "Skipped",
};

export const StatusBadge = ({ status }: { status: string }) => (
  <span className={`badge badge-${status}`}>{STATUS_TEXT[status] ?? status}</span>
);

const gradeClass = (grade: string) => `grade grade-${grade.replace("+", "plus").toLowerCase()}`;

export const Grade = ({ grade, large = false }: { grade: string | null; large?: boolean }) =>
  grade ? (
    <span className={`${gradeClass(grade)}${large ? " grade-large" : ""}`} title={`Grade ${grade}`}>
      {grade}
    </span>
  ) : (
    <span className="muted">–</span>
  );

/** A score out of 100 as a bar and its number. */
export const ScoreBar = ({ label, value }: { label: string; value: number | null | undefined }) => (
  <div className="score">
    <span className="score-label">{label}</span>
    {value === null || value === undefined ? (
      <span className="muted">no score yet</span>
    ) : (
      <>
        <meter min={0} max={100} low={55} high={85} optimum={100} value={value} aria-label={`${label} score`} />
        <span className="score-value">{value}</span>
      </>
    )}
  </div>
);

export const Field = ({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: ReactNode;
  children: (props: { id: string; "aria-describedby"?: string }) => ReactNode;
}) => {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(hint ? { "aria-describedby": hintId } : {}) })}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
};

/** A wide table that scrolls sideways on a phone, reachable with the keyboard. */
export const TableWrap = ({ label, children }: { label: string; children: ReactNode }) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
  <section className="table-wrap" tabIndex={0} aria-label={label}>
    {children}
  </section>
);

/** A field for an audit's most pages: a whole number from 1 to 10,000, empty for the plan's ceiling. */
export const MaxPagesField = ({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) => (
  <Field label={label} hint="Empty: as many as your plan allows.">
    {(props) => (
      <input
        {...props}
        type="number"
        min={1}
        max={10_000}
        step={1}
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    )}
  </Field>
);

/** A form's refusal, announced as it appears; nothing while there is none. */
export const FormError = ({ error }: { error: string | null }) =>
  error ? (
    <p className="form-error" role="alert">
      {error}
    </p>
  ) : null;
