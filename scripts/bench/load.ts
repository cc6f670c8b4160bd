/**
 * The load: autocannon, which keeps a fixed number of connections each with one request in
 * flight. Scans send a different target per request (setupRequest) and keep each response's
 * body, so a latency can be matched with the scan's own timings; the other endpoints are
 * driven for a fixed time.
 */
import autocannon from "autocannon";
import { percentile } from "../../tests/support/corpus";

export type ScanResult = {
  target: string;
  status: number;
  ms: number;
  scanId: string | null;
  /** whether the worker rendered the page in Chromium (the result's `rendered`) */
  rendered: boolean | null;
};

export type ScanRun = { results: ScanResult[]; wallMs: number; errors: number };

type Response = { status: number; body: string; target: string };

const scanOf = (body: string): { scanId: string | null; rendered: boolean | null } => {
  try {
    const { data } = JSON.parse(body) as { data?: { id?: unknown; rendered?: unknown } };
    return {
      scanId: typeof data?.id === "string" ? data.id : null,
      rendered: typeof data?.rendered === "boolean" ? data.rendered : null,
    };
  } catch {
    return { scanId: null, rendered: null };
  }
};

/**
 * POSTs one scan per target through `connections` concurrent connections, in target order, and
 * answers each scan's client-side latency (request written to response read).
 */
export const driveScans = ({
  gatewayUrl,
  headers,
  targets,
  mode,
  connections,
  onResult,
}: {
  gatewayUrl: string;
  headers: Record<string, string>;
  targets: readonly string[];
  mode: "quick" | "full";
  connections: number;
  onResult?: (result: ScanResult, done: number) => void;
}): Promise<ScanRun> =>
  new Promise((resolve, reject) => {
    let next = 0;
    // onResponse and the instance's response event fire back to back for the same response
    let last: Response | null = null;
    const results: ScanResult[] = [];
    let errors = 0;
    const started = performance.now();
    const instance = autocannon(
      {
        url: gatewayUrl,
        connections: Math.min(connections, targets.length),
        amount: targets.length,
        // a scan answers within SCAN_WAIT_MS (≤ 34 s) with a result or a 202
        timeout: 60,
        requests: [
          {
            method: "POST",
            path: "/api/v1/scan",
            headers: { "content-type": "application/json", ...headers },
            setupRequest: (request, context) => {
              const target = targets[next % targets.length] as string;
              next += 1;
              (context as { target?: string }).target = target;
              return { ...request, body: JSON.stringify({ url: target, mode }) };
            },
            onResponse: (status, body, context) => {
              last = { status, body, target: String((context as { target?: string }).target) };
            },
          },
        ],
      },
      (error) => {
        if (error) return reject(error);
        resolve({ results, wallMs: performance.now() - started, errors });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      const response = last as Response | null;
      last = null;
      const result: ScanResult = {
        target: response?.target ?? "?",
        status: statusCode,
        ms: responseTime,
        ...(response ? scanOf(response.body) : { scanId: null, rendered: null }),
      };
      results.push(result);
      onResult?.(result, results.length);
    });
    instance.on("reqError", () => {
      errors += 1;
    });
  });

export type EndpointRun = {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** responses by status code */
  statuses: Record<string, number>;
  errors: number;
  /** CPU time of the serving process (user + system) divided by the requests answered */
  serverCpuUsPerRequest?: number;
};

/** Drives one endpoint for durationS seconds and answers its throughput and latency. */
export const driveEndpoint = ({
  url,
  method = "GET",
  headers = {},
  body,
  connections,
  durationS,
}: {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
}): Promise<EndpointRun> =>
  new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let errors = 0;
    const started = performance.now();
    const instance = autocannon(
      {
        url,
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body }),
        connections,
        duration: durationS,
      },
      (error) => {
        if (error) return reject(error);
        const wallS = (performance.now() - started) / 1000;
        resolve({
          requests: latencies.length,
          requestsPerSecond: latencies.length / wallS,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          statuses,
          errors,
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
    instance.on("reqError", () => {
      errors += 1;
    });
  });

/** A realistic evaluator call: three observed answers, three pieces of evidence, a funnel. */
export const EVALUATE_BODY = {
  citations: [
    {
      brandName: "Acme",
      targetUrl: "https://www.acme.example/crm",
      responseText: "For a small team, Acme CRM and Globex are the usual picks; Acme is cheaper.",
      citedSources: [{ url: "https://docs.acme.example/pricing" }, { url: "https://news.example/crm-review" }],
      position: 1,
    },
    {
      brandName: "Acme",
      targetUrl: "https://www.acme.example/crm",
      responseText: "Globex leads this category.",
      citedSources: [{ url: "https://globex.example/" }],
    },
    { brandName: "Acme", targetUrl: "https://www.acme.example/crm", responseText: "It depends on your needs." },
  ],
  evidence: [
    { sourceType: "primary", url: "https://docs.acme.example/pricing", snippet: "Plans from $9", supportsClaim: true },
    { sourceType: "news", url: "https://news.example/crm-review", snippet: "Acme is cheaper", supportsClaim: true },
    { sourceType: "forum", snippet: "I switched to Acme last year" },
  ],
  revenue: {
    monthlyAiImpressions: 120_000,
    conversionRate: 0.02,
    revenuePerConversion: 80,
    grossMargin: 0.7,
    attributionCoverage: 0.6,
  },
};
