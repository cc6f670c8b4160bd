import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { isIP } from "node:net";
import { type PortPolicy, type Resolve, vetTarget } from "@scan/platform";
import { Agent, fetch, type Response } from "undici";

/** Why a target could not be fetched at all; the scan fails with upstream_failure. */
export class TargetError extends Error {
  /** the target's HTTP status when it answered (a 5xx), else undefined (no answer, refused) */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = "TargetError";
    this.status = status;
  }
}

export type FetchPolicy = {
  allowlist: ReadonlySet<string>;
  /** resolves the page's own hosts (document, robots.txt, llms.txt, sitemap) */
  resolve: Resolve;
  /** resolves the hosts of the render's subresources; a slow answer blocks the request */
  resolveSubresource: Resolve;
  /** ports a target may use unless allowlisted */
  ports: PortPolicy;
  userAgent: string;
  /** a site behind a login: headers sent only to requests of its own origin (never logged) */
  access?: SiteAccess | undefined;
};

/**
 * What a scan of a site behind a login sends: the request headers that carry its credentials
 * (its own headers, `Cookie`, `Authorization: Basic`), to `origin` only. A redirect to or a
 * subresource from any other origin, `http://` against `https://` included, is sent none.
 */
export type SiteAccess = { origin: string; headers: Readonly<Record<string, string>> };

/** The credential headers a request to `url` carries: the site's, when it is of the site's origin. */
export const accessHeadersFor = (url: URL | string, access: SiteAccess | undefined): Record<string, string> => {
  if (!access) return {};
  const origin = typeof url === "string" ? URL.parse(url)?.origin : url.origin;
  return origin === access.origin ? { ...access.headers } : {};
};

export type FetchedResponse = {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** ms from sending the request to its response headers */
  ttfbMs: number;
};

export type FetchLimits = { deadline: number; maxBytes: number };

const headersOf = (response: Response): Record<string, string> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return headers;
};

/** Reads at most maxBytes of a body before the deadline; a body that trickles forever is cut. */
const readCapped = async (response: Response, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> => {
  if (!response.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks), truncated: false };
      const room = maxBytes - size;
      if (value.byteLength >= room) {
        chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
        return { body: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(Buffer.from(value));
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
};

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A connection lookup that answers the addresses the target was vetted with, whatever the
 * name: the socket goes where the vetting looked, and a rebinding DNS answer is never asked for.
 */
const pinnedLookup =
  (addresses: readonly string[]) =>
  (_hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    const entries = addresses.map((address) => ({ address, family: isIP(address) }));
    if ((options as LookupAllOptions).all) callback(null, entries);
    else callback(null, entries[0]?.address ?? "", entries[0]?.family);
  };

/** A dispatcher whose connections go only to the vetted addresses (none: the system's lookup). */
const pinnedAgent = (addresses: readonly string[]): Agent =>
  new Agent(addresses.length > 0 ? { connect: { lookup: pinnedLookup(addresses) } } : {});

/**
 * One HTTP request, no redirects followed, with the target vetted first and the connection
 * pinned to the vetted addresses. The deadline covers
 * connecting, headers and the body, so a server that accepts and never answers, or trickles
 * bytes, ends in a TargetError instead of a hung scan.
 */
export const fetchOnce = async (url: URL, policy: FetchPolicy, limits: FetchLimits): Promise<FetchedResponse> => {
  const verdict = await vetTarget(url, policy);
  if (!verdict.allowed) throw new TargetError(`${url.origin} refused: ${verdict.reason}`);
  const remaining = limits.deadline - Date.now();
  if (remaining <= 0) throw new TargetError(`${url.origin} did not answer in time`);
  const signal = AbortSignal.timeout(remaining);
  const dispatcher = pinnedAgent(verdict.addresses);
  try {
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: "manual",
        signal,
        dispatcher,
        headers: {
          ...accessHeadersFor(url, policy.access),
          "user-agent": policy.userAgent,
          accept: "text/html,application/xhtml+xml,*/*;q=0.8",
        },
      });
    } catch (error) {
      throw new TargetError(describeFetchError(url, error));
    }
    const ttfbMs = Math.round(performance.now() - started);
    try {
      const { body, truncated } = await readCapped(response, limits.maxBytes);
      return { url: url.toString(), status: response.status, headers: headersOf(response), body, truncated, ttfbMs };
    } catch (error) {
      throw new TargetError(describeFetchError(url, error));
    }
  } finally {
    // one request per agent: its socket must not outlive the request
    void dispatcher.destroy().catch(() => undefined);
  }
};

// by name, not instanceof: the abort reason is a DOMException, which is not always an Error
const isTimeout = (error: unknown): boolean => {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "TimeoutError" || name === "AbortError";
};

const describeFetchError = (url: URL, error: unknown): string => {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  // undici reports an abort mid-connection as a TypeError whose cause is the timeout
  if (isTimeout(error) || isTimeout(cause)) return `${url.origin} did not answer in time`;
  const code = (cause as { code?: unknown })?.code;
  const detail = typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause);
  return `${url.origin} could not be fetched (${detail})`;
};
