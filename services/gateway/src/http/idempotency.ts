import { createHash } from "node:crypto";
import { AppError } from "@scan/contract";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { Caller } from "../access/authenticate";
import { clientBucket } from "../access/client-ip";
import { type BoundResource, type Claim, ClaimLostError, type IdempotencyStore } from "../access/idempotency-store";
import type { Tx } from "../access/user-lock";
import type { Around } from "./route";

declare global {
  namespace Express {
    interface Locals {
      /**
       * On an idempotent route called with an Idempotency-Key: what an earlier request with
       * the key created (answer it, create nothing), and how the work binds what it creates
       * to the key, inside the transaction that stores it.
       */
      idempotency?: { resource: BoundResource | null; bind: (resource: BoundResource, tx: Tx) => Promise<void> };
    }
  }
}

/** how often a key's answer that could not be kept (the database away) is tried again */
const KEEP_RETRY_MS = 1_000;
/** how long it is tried: outages longer than this end with the claim abandoned, and a retry answers its scans */
const KEEP_TRYING_MS = 5 * 60_000;

/**
 * Runs a write of the key's row until it succeeds or `forMs` runs out: an answer sent while
 * Postgres was away is kept once it is back, so its retries replay it. A retry that took the
 * claim over meanwhile makes the write a no-op.
 */
const keepTrying = (write: () => Promise<void>, forMs: number, log: Logger): void => {
  const until = Date.now() + forMs;
  const again = () => {
    write().catch((error: unknown) => {
      if (Date.now() + KEEP_RETRY_MS >= until) {
        log.warn({ err: error instanceof Error ? error.message : String(error) }, "idempotency key not recorded");
        return;
      }
      setTimeout(again, KEEP_RETRY_MS).unref();
    });
  };
  setTimeout(again, KEEP_RETRY_MS).unref();
};

const KEY_HINT =
  'Send one Idempotency-Key of 1 to 255 printable ASCII characters, bare or as a quoted string ("..."); a UUID v4 is a good key.';

/**
 * The Idempotency-Key of a request (draft-ietf-httpapi-idempotency-key-header: an sf-string,
 * `"..."`; the bare value Stripe's clients send is taken too), or undefined without one.
 * Empty, longer than 255 characters, not printable ASCII, badly quoted, sent twice (or
 * joined into one line: a bare key with a comma) is 400.
 */
export const readIdempotencyKey = (req: Request): string | undefined => {
  const values = req.headersDistinct["idempotency-key"];
  if (values === undefined) return undefined;
  if (values.length > 1) throw new AppError("invalid_request", "Idempotency-Key is sent more than once", KEY_HINT);
  const raw = (values[0] ?? "").trim();
  let key = raw;
  if (raw.startsWith('"')) {
    // an sf-string: \" and \\ are the only escapes, and nothing may follow the closing quote
    const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(raw);
    if (!match) throw new AppError("invalid_request", "Idempotency-Key is not a well-formed quoted string", KEY_HINT);
    key = (match[1] ?? "").replace(/\\(["\\])/g, "$1");
  } else if (raw.includes(",")) {
    // two keys joined by a proxy, or a list: a comma in a key must be quoted
    throw new AppError(
      "invalid_request",
      "Idempotency-Key holds a comma: send one key, quoted if it has a comma",
      KEY_HINT,
    );
  }
  if (key.length === 0) throw new AppError("invalid_request", "Idempotency-Key is empty", KEY_HINT);
  if (key.length > 255) {
    throw new AppError("invalid_request", `Idempotency-Key is ${key.length} characters long, more than 255`, KEY_HINT);
  }
  if (!/^[\x20-\x7e]+$/.test(key)) {
    throw new AppError("invalid_request", "Idempotency-Key holds characters other than printable ASCII", KEY_HINT);
  }
  return key;
};

/** JSON with every object's keys in order: two bodies that say the same thing are the same text. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "";
};

/** What a key is held to: the method, the route's declared path and the body as parsed (key order and spacing aside). */
export const fingerprintOf = (method: string, path: string, body: unknown): string =>
  createHash("sha256")
    .update(`${method.toUpperCase()}\n${path}\n${body === undefined ? "" : canonicalJson(body)}`)
    .digest("hex");

/** Keys are the caller's own: an API key's, a user's (key endpoints), or an anonymous address's. */
const scopeOf = (caller: Caller, req: Request): string => {
  switch (caller.kind) {
    case "key":
      return `key:${caller.keyId}`;
    case "user":
      return `user:${caller.userId}`;
    case "anonymous":
      return `ip:${clientBucket(req.ip)}`;
  }
};

/**
 * Answers that are kept and replayed: what the route's work answered, success or refusal,
 * except a server error (5xx) and the answers that ask for a retry (408, 409, 425, 429): a
 * retry of those runs again.
 */
const remembered = (status: number): boolean => status < 500 && ![408, 409, 425, 429].includes(status);

/** The headers of an answer worth repeating; the rate-limit headers and request id are the retry's own. */
const REPLAYED_HEADERS = ["content-type", "location", "content-location", "preference-applied", "cache-control"];

const bytesOf = (body: unknown): Buffer =>
  Buffer.isBuffer(body)
    ? body
    : typeof body === "string"
      ? Buffer.from(body)
      : Buffer.from(JSON.stringify(body ?? null) ?? "");

/** A retry while the key's first request is still being answered (or a claim a retry took over). */
const IN_USE = () =>
  new AppError(
    "idempotency_key_in_use",
    "A request with this Idempotency-Key is still being answered",
    "Retry after Retry-After seconds with the same key and body: you will receive its answer.",
    { "Retry-After": "1" },
  );

/**
 * Watches the answer of a claimed request: once its status and body are known they are kept
 * (or the claim released), and only then sent, so a retry that arrives the moment the client
 * has its answer finds it kept. A handler that ends without answering releases the claim.
 */
const watch = async (
  store: IdempotencyStore,
  claim: Claim,
  res: Response,
  log: Logger,
  proceed: () => Promise<void>,
): Promise<void> => {
  let settled = false;
  // the claim is held while the work runs: a gateway that dies stops renewing it, and a retry
  // takes it over within one lease
  const renewal = setInterval(() => void store.renew(claim).catch(() => undefined), store.leaseMs / 3);
  renewal.unref();
  const send = res.send.bind(res);
  res.send = ((body?: unknown) => {
    if (settled) return send(body);
    settled = true;
    clearInterval(renewal);
    const status = res.statusCode;
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const answer = { status, headers, body: bytesOf(body) };
    const keep = () => (remembered(status) ? store.complete(claim, answer) : store.release(claim));
    keep()
      .catch(() => {
        // the answer still goes out; it is kept once the database is back, within the claim's lease
        keepTrying(keep, KEEP_TRYING_MS, log);
      })
      .finally(() => send(body));
    return res;
  }) as Response["send"];
  let failed = false;
  try {
    await proceed();
  } catch (error) {
    // the error handler answers next, through send above
    failed = true;
    if (error instanceof ClaimLostError) throw IN_USE();
    throw error;
  } finally {
    if (!settled) clearInterval(renewal);
    if (!failed && !settled) {
      settled = true;
      await store.release(claim).catch(() => undefined);
    }
  }
};

/**
 * Idempotency-Key on the routes declared idempotent (the POSTs that create something), after
 * the draft of the IETF httpapi group and Stripe's practice; see docs/api.md, Idempotent
 * requests. Without the header nothing changes. With it, the first request with the key does
 * the work and its answer is kept for the store's time to live; a retry with the same key and
 * the same request is answered the kept answer again (`Idempotent-Replayed: true`) without
 * the work, and its point of the rate limit is given back, as is a retry's while the first is
 * still running (409). The same key with another request is 422, and counted.
 */
export const idempotentRequests =
  ({ store }: { store: IdempotencyStore }): Around =>
  async (route, req, res, proceed) => {
    const key = readIdempotencyKey(req);
    if (key === undefined) return proceed();
    const method = route.method.toUpperCase();
    const outcome = await store.claim({
      scope: scopeOf(res.locals.caller, req),
      key,
      fingerprint: fingerprintOf(method, route.path, req.body),
      method,
      path: route.path,
    });
    switch (outcome.kind) {
      case "claimed": {
        const { claim } = outcome;
        res.locals.idempotency = {
          resource: outcome.resource,
          bind: (resource, tx) => store.bind(claim, resource, tx),
        };
        return watch(store, claim, res, res.locals.log, proceed);
      }
      case "replay": {
        await res.locals.giveBack?.();
        for (const [name, value] of Object.entries(outcome.answer.headers)) res.setHeader(name, value);
        res.setHeader("Idempotent-Replayed", "true");
        res.status(outcome.answer.status).end(outcome.answer.body);
        return;
      }
      case "in_progress":
        await res.locals.giveBack?.();
        throw IN_USE();
      case "mismatch":
        throw new AppError(
          "idempotency_key_reused",
          outcome.method === method && outcome.path === route.path
            ? `This Idempotency-Key was first sent with another body to ${method} ${route.path}`
            : `This Idempotency-Key was first sent to ${outcome.method} ${outcome.path}, not ${method} ${route.path}`,
          "A key names one request: retry with exactly the first request's body, or send a new key for a new request.",
        );
    }
  };
