import type { ScanMode } from "@scan/contract";
import { ScanResult, StoredScan } from "@scan/contract";
import { failedPage, type PageReport, pageOfScanResult, pageOfStoredScan } from "@scan/reports";
import { z } from "zod";

/** The command's exit codes (docs/cli.md, Exit codes). */
export const EXIT = {
  /** the scan completed and no `error` assertion failed */
  ok: 0,
  /** an `error` assertion failed */
  assertionFailed: 1,
  /** the page itself failed (a 4xx or 5xx, no answer), unless --allow-page-failure */
  pageFailed: 1,
  /** bad flags, config file or environment */
  usage: 2,
  /** no result to judge: the scan failed, or could not be run or followed */
  noResult: 3,
} as const;

/** A failure to tell the user about, with the process exit code it ends in. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.noResult,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** The API's own error answer: its code and message, besides the text shown to the user. */
class ApiError extends CliError {
  constructor(
    message: string,
    readonly code: string,
    readonly apiMessage: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type ApiClientOptions = {
  baseUrl: string;
  apiKey?: string;
  /** the whole wait for a result */
  timeoutMs: number;
  /** between two reads of the scan's status */
  pollMs: number;
  onProgress: (status: string) => void;
};

/** One HTTP request's own limit: the API answers well within the 35 s client timeout of docs/spec/public-scanning-api.md §8. */
const REQUEST_TIMEOUT_MS = 35_000;

const ErrorBody = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }),
});
const Accepted = z.object({ data: z.object({ id: z.uuid(), status: z.string() }) });

/**
 * One JSON request to the API with the client's headers: the body on 2xx, else the API's own
 * error (its message, code and hint) or what went wrong on the way, as a CliError.
 */
export const apiCaller =
  (baseUrl: string, headers: Record<string, string>) =>
  async (path: string, init: RequestInit = {}, requestTimeoutMs = REQUEST_TIMEOUT_MS) => {
    const target = new URL(path, baseUrl);
    let response: Response;
    let text: string;
    try {
      response = await fetch(target, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      text = await response.text();
    } catch (error) {
      if ((error as Error).name === "TimeoutError") {
        throw new CliError(`no answer from the API within ${Math.round(requestTimeoutMs / 1000)} s`);
      }
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new CliError(`could not reach the API at ${target.origin} (${cause}); check SCAN_API_URL`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CliError(`the API answered ${response.status} with something that is not JSON`);
    }
    if (!response.ok) {
      const error = ErrorBody.safeParse(body);
      if (!error.success) throw new CliError(`the API answered ${response.status}`);
      const { code, message, hint } = error.data.error;
      throw new ApiError(`${message} (${response.status} ${code})${hint ? `\n${hint}` : ""}`, code, message);
    }
    return { response, body: body as { data?: unknown } };
  };

/** The longest pause between two reads of a scan's status: each read counts against the key's rate limit. */
const MAX_POLL_MS = 5_000;

/**
 * Scans through the HTTP API. With an API key: POST with `Prefer: respond-async`, then read
 * the scan at its Location until it has finished, reporting each status it sees (a server
 * that answers the POST with the result at once is fine too). Without one, it POSTs without
 * the preference and takes the answer the API gives within its own wait; if that is a 202
 * after all, it follows the scan by the access link in its Location.
 */
export const scanViaApi = async (
  { baseUrl, apiKey, timeoutMs, pollMs, onProgress }: ApiClientOptions,
  { url, mode }: { url: string; mode: ScanMode },
): Promise<PageReport> => {
  const headers: Record<string, string> = { accept: "application/json", "x-response-form": "A" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  const call = apiCaller(baseUrl, headers);

  const submit = (prefer: Record<string, string>, requestTimeoutMs?: number) =>
    call(
      "/api/v1/scan",
      {
        method: "POST",
        headers: { "content-type": "application/json", ...prefer },
        body: JSON.stringify({ url, mode }),
      },
      requestTimeoutMs,
    );

  const deadline = Date.now() + timeoutMs;
  let submitted: Awaited<ReturnType<typeof call>>;
  if (!apiKey) {
    // anonymous: wait for the answer; a scan that outlives the wait is followed by its access link
    onProgress("scanning (waiting for the API's answer)");
    try {
      submitted = await submit({}, Math.min(timeoutMs, REQUEST_TIMEOUT_MS));
    } catch (error) {
      // the API stored the scan as failed and says why: a failed scan, as the keyed path reports it
      if (error instanceof ApiError && error.code === "upstream_failure") {
        return failedPage(url, mode, { code: error.code, message: error.apiMessage });
      }
      throw error;
    }
  } else {
    onProgress("submitting");
    submitted = await submit({ prefer: "respond-async" });
  }
  if (submitted.response.status === 200) return pageOfScanResult(ScanResult.parse(submitted.body.data));
  const accepted = Accepted.parse(submitted.body);
  // a key holder's scan is read with the key; an anonymous one with the access link in Location
  const location = new URL(submitted.response.headers.get("location") ?? `/api/v1/scan/${accepted.data.id}`, baseUrl);
  onProgress(accepted.data.status);

  let pause = pollMs;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    let body: { data?: unknown };
    try {
      ({ body } = await call(location.href));
    } catch (error) {
      // the scan is stored and goes on: the user can still read it
      if (error instanceof CliError)
        throw new CliError(`${error.message}\nThe scan goes on as ${accepted.data.id}: GET ${location}`);
      throw error;
    }
    const scan = StoredScan.parse(body.data);
    if (scan.status === "completed" || scan.status === "failed") return pageOfStoredScan(scan);
    onProgress(scan.status);
    pause = Math.min(MAX_POLL_MS, Math.max(pollMs, Math.round(pause * 1.5)));
    if (Date.now() + pause > deadline) {
      throw new CliError(
        `no result within ${Math.round(timeoutMs / 1000)} s; the scan goes on as ${accepted.data.id}: GET ${location}`,
      );
    }
  }
};
