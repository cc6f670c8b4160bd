import { HOSTILE_BUDGET_EXTRA_MS } from "../../tests/support/hostile-targets";

/**
 * Hostile targets (tests/support/hostile-targets.ts) scanned one at a time through the gateway:
 * how long each takes to reach its verdict (200) or upstream_failure (502), against its budget (the worker's
 * SCAN_TIMEOUT_MS plus what judging it needs). The fault tests assert that each ends and how; the
 * time bound is measured here, where a loaded machine is reported rather than failed.
 */
export type HostileResult = {
  scanTimeoutMs: number;
  targets: Array<{ path: string; budgetMs: number; statuses: number[]; ms: number[]; worstMs: number; pass: boolean }>;
};

export const HOSTILE_PATHS = Object.keys(HOSTILE_BUDGET_EXTRA_MS);

/**
 * One scan queued without waiting (`Prefer: respond-async`: admission control, which judges a
 * waiting caller's budget by recent scans, stays out of it) and read until it has ended: its
 * final status (200 completed, 502 failed) and the milliseconds from the request to the first
 * read that saw it ended (read every 50 ms).
 */
const scanToVerdict = async (
  gatewayUrl: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number }> => {
  const started = performance.now();
  const queued = await fetch(`${gatewayUrl}/api/v1/scan`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", prefer: "respond-async" },
    body: JSON.stringify({ url, mode: "full" }),
  });
  await queued.arrayBuffer();
  const location = queued.headers.get("location");
  if (queued.status !== 202 || !location) throw new Error(`${url}: the scan was not queued (${queued.status})`);
  // the scan's own budget is seconds: a scan still not ended after two minutes is reported as that
  while (performance.now() - started < 120_000) {
    const read = await fetch(`${gatewayUrl}${location}`, { headers });
    if (read.status !== 200) throw new Error(`${url}: reading the scan answered ${read.status}`);
    const { data } = (await read.json()) as { data?: { status?: string } };
    if (data?.status === "completed" || data?.status === "failed") {
      return { status: data.status === "completed" ? 200 : 502, ms: performance.now() - started };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { status: 202, ms: performance.now() - started };
};

export const measureHostile = async ({
  gatewayUrl,
  siteUrl,
  rounds,
  scanTimeoutMs,
  headers,
}: {
  gatewayUrl: string;
  /** an API key's: its reads are counted against the key's allowance, not the anonymous reads' */
  headers: Record<string, string>;
  siteUrl: (path: string) => string;
  rounds: number;
  scanTimeoutMs: number;
}): Promise<HostileResult> => {
  const targets: HostileResult["targets"] = [];
  for (const path of HOSTILE_PATHS) {
    const budgetMs = scanTimeoutMs + (HOSTILE_BUDGET_EXTRA_MS[path] ?? 0);
    const statuses: number[] = [];
    const ms: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const { status, ms: took } = await scanToVerdict(gatewayUrl, siteUrl(path), headers);
      statuses.push(status);
      ms.push(took);
    }
    const worstMs = Math.max(...ms);
    targets.push({ path, budgetMs, statuses, ms, worstMs, pass: worstMs < budgetMs });
  }
  return { scanTimeoutMs, targets };
};
