import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { type Resolve, vetTarget } from "@scan/platform";

export type DeliveryPolicy = { allowlist: ReadonlySet<string>; resolve: Resolve; userAgent: string };

export type DeliveryRequest = {
  url: string;
  body: string;
  /** extra headers: the signature, the delivery id and attempt, the request id */
  headers: Record<string, string>;
  timeoutMs: number;
};

export type DeliveryResult = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** no later attempt can succeed: the URL is not (or no longer) allowed */
  permanent: boolean;
};

/** A receiver's answer is not read beyond this; deliveries only need its status. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Connects to the address that was vetted, never to what a second DNS answer might say. */
const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

const describe = (error: unknown, timeoutMs: number): string => {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "AbortError" || name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? `could not connect (${code})` : "could not connect";
};

/**
 * One signed POST of a finished scan. The callback URL is vetted as a scan target is (public
 * unless allowlisted) at every attempt, and the connection goes to the vetted address, so a
 * name that re-resolves to a private address in between cannot redirect the delivery.
 * Redirects are not followed: any status outside 2xx is a failed attempt.
 */
export const deliver = async (
  { url, body, headers, timeoutMs }: DeliveryRequest,
  { allowlist, resolve, userAgent }: DeliveryPolicy,
): Promise<DeliveryResult> => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const verdict = await vetTarget(target, { allowlist, resolve });
  if (!verdict.allowed) {
    return { ok: false, statusCode: null, error: `refused: ${verdict.reason}`, durationMs: elapsed(), permanent: true };
  }
  const pinned = verdict.addresses[0];
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  try {
    const statusCode = await new Promise<number>((done, fail) => {
      const req = send(
        target,
        {
          method: "POST",
          signal: AbortSignal.timeout(timeoutMs),
          lookup: pinned ? pinnedLookup(pinned) : undefined,
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            "user-agent": userAgent,
            ...headers,
          },
        },
        (res: IncomingMessage) => {
          let read = 0;
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          res.on("close", () => done(res.statusCode ?? 0));
          res.on("error", () => done(res.statusCode ?? 0));
        },
      );
      req.on("error", fail);
      req.end(body);
    });
    const ok = statusCode >= 200 && statusCode < 300;
    return { ok, statusCode, error: ok ? null : `HTTP ${statusCode}`, durationMs: elapsed(), permanent: false };
  } catch (error) {
    return { ok: false, statusCode: null, error: describe(error, timeoutMs), durationMs: elapsed(), permanent: false };
  }
};
