import { dataOf } from "@scan/client";
import { useEffect } from "react";
import { Shell } from "../components/layout";
import { Empty, Loading, PageTitle, Problem, TableWrap } from "../components/ui";
import { formatDateTime, formatMs, formatNumber } from "../format";
import { useLoad } from "../load";
import { useApi } from "../session";
import { Throughput } from "./throughput-chart";

const REFRESH_MS = 10_000;
const STATES = ["waiting", "prioritized", "active", "delayed", "failed", "completed"] as const;
const STATE_NAME: Record<(typeof STATES)[number], string> = {
  waiting: "Waiting",
  prioritized: "Prioritised",
  active: "Running",
  delayed: "Delayed",
  failed: "Failed",
  completed: "Completed",
};

export const Operations = () => {
  const api = useApi();
  const overview = useLoad(async () => dataOf(await api.GET("/api/v1/operations", {})), [api]);
  const forbidden = overview.state === "error" && overview.problem.status === 403;
  const { reload } = overview;
  useEffect(() => {
    if (forbidden) return;
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload, forbidden]);

  if (forbidden && overview.state === "error")
    return (
      <Shell>
        <PageTitle>Operations</PageTitle>
        <Problem
          problem={{
            ...overview.problem,
            hint: "Operations is for the operators of this service. Ask one to give your account the operator role if you need it.",
          }}
          title="You are not allowed to see this page (403)."
        />
      </Shell>
    );

  const data = overview.data;
  return (
    <Shell>
      <PageTitle
        actions={
          data?.queueDashboard ? (
            <a className="button secondary" href={data.queueDashboard}>
              Queue dashboard
            </a>
          ) : null
        }
      >
        Operations
      </PageTitle>
      <p className="muted">
        Refreshed every {REFRESH_MS / 1_000} seconds.
        {data && !data.queueDashboard ? " The queue dashboard is off: the deployment sets no ADMIN_TOKEN." : ""}
      </p>
      {overview.state === "error" ? <Problem problem={overview.problem} retry={() => void overview.reload()} /> : null}
      {!data && overview.state === "loading" ? <Loading what="the queue" /> : null}
      {data ? (
        <>
          <section className="card" aria-labelledby="queue-title">
            <h2 id="queue-title">Queue</h2>
            <dl className="tiles">
              {STATES.map((state) => (
                <div key={state} className={`tile${state === "failed" && data.queue.failed > 0 ? " tile-failed" : ""}`}>
                  <dt>{STATE_NAME[state]}</dt>
                  <dd>{formatNumber(data.queue[state])}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section className="card" aria-labelledby="hour-title">
            <h2 id="hour-title">Last hour</h2>
            <dl className="tiles">
              <div className="tile">
                <dt>Done</dt>
                <dd>{formatNumber(data.lastHour.done)}</dd>
              </div>
              <div className="tile">
                <dt>Failed</dt>
                <dd>{formatNumber(data.lastHour.failed)}</dd>
              </div>
              <div className="tile">
                <dt>p50 scan time</dt>
                <dd>{formatMs(data.lastHour.p50Ms)}</dd>
              </div>
              <div className="tile">
                <dt>p95 scan time</dt>
                <dd>{formatMs(data.lastHour.p95Ms)}</dd>
              </div>
            </dl>
            <Throughput perMinute={data.lastHour.perMinute} />
          </section>
          <section className="card" aria-labelledby="workers-title">
            <h2 id="workers-title">Workers</h2>
            {data.workers.length === 0 ? (
              <Empty title="No worker is connected to the queue.">
                <p>Scans wait until one starts: run the worker service (see docs/deployment.md).</p>
              </Empty>
            ) : (
              <TableWrap label="Workers">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Worker</th>
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.workers.map((worker) => (
                      <tr key={worker.name}>
                        <td>
                          <code>{worker.name}</code>
                        </td>
                        <td>{formatDateTime(worker.lastSeen)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
          <section className="card" aria-labelledby="failures-title">
            <h2 id="failures-title">Latest failed scans</h2>
            {data.failures.length === 0 ? (
              <Empty title="No scan has failed lately." />
            ) : (
              <TableWrap label="Latest failed scans">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Page</th>
                      <th scope="col">Mode</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Failed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.failures.map((failure) => (
                      <tr key={failure.id}>
                        <td className="url">{failure.url}</td>
                        <td>{failure.mode}</td>
                        <td>
                          {failure.error}
                          {failure.code ? <div className="muted small">{failure.code}</div> : null}
                        </td>
                        <td>{formatDateTime(failure.finishedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
        </>
      ) : null}
    </Shell>
  );
};
