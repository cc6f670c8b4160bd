import { eventually } from "./prometheus";
import { api } from "./stack";

type Envelope = { data?: any; error?: { code: string; message: string } };

export type FinishedCheck = { id: string; status: string; description: string; fix: string };

/** A finished scan as its client learns it: from the POST's answer, or from its row after a 202. */
export type FinishedScan = {
  id: string | null;
  status: "completed" | "failed";
  errorCode: string | null;
  checks: FinishedCheck[];
  rendered: boolean | null;
  renderFailure: { code: string; message: string } | null;
  /** what the POST answered: 200 or 502 when the gateway's wait saw the end, 202 when it ran out first */
  answeredWith: number;
};

/**
 * POST /api/v1/scan and the scan's end, as a client that keeps reading after a 202 sees it: on a
 * loaded machine a scan may outlast the gateway's wait (SCAN_WAIT_MS), goes on, and its row
 * (read by the `Location` the 202 gave) says how it ended. Gives up after `giveUpMs`.
 */
export const scanToEnd = async (
  base: string,
  body: { url: string; mode: "quick" | "full" },
  { headers = {}, giveUpMs = 180_000 }: { headers?: Record<string, string>; giveUpMs?: number } = {},
): Promise<FinishedScan> => {
  const response = await api(base, "/api/v1/scan", { body, headers });
  const answer = response.body as Envelope;
  if (response.status === 200) {
    const { data } = answer;
    return {
      id: data.id,
      status: "completed",
      errorCode: null,
      checks: data.checks,
      rendered: data.rendered,
      renderFailure: data.renderFailure,
      answeredWith: 200,
    };
  }
  if (response.status !== 202) {
    return {
      id: null,
      status: "failed",
      errorCode: answer.error?.code ?? `http_${response.status}`,
      checks: [],
      rendered: null,
      renderFailure: null,
      answeredWith: response.status,
    };
  }
  const location = response.headers.get("location") ?? "";
  const stored = await eventually(
    async () => {
      const read = (await api(base, location, { headers })).body as Envelope;
      return read.data?.status === "completed" || read.data?.status === "failed" ? read.data : undefined;
    },
    { timeoutMs: giveUpMs, intervalMs: 250, what: `the scan of ${body.url} to finish` },
  );
  return {
    id: stored.id,
    status: stored.status,
    errorCode: stored.error?.code ?? null,
    checks: stored.checks ?? [],
    rendered: stored.rendered,
    renderFailure: stored.render_failure,
    answeredWith: 202,
  };
};
