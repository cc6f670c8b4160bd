import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@scan/db";
import type { Tx } from "./user-lock";

/** The claim was taken over by a retry before its request stored anything: that request must not. */
export class ClaimLostError extends Error {
  constructor() {
    super("the Idempotency-Key's claim was taken over by a retry");
  }
}

/** A request sent with an Idempotency-Key, as the store knows it. */
export type IdempotentRequest = {
  /** who sent it: `key:<id>`, `user:<id>` or `ip:<bucket>`; keys of different callers never meet */
  scope: string;
  /** the Idempotency-Key as sent; stored only hashed */
  key: string;
  /** SHA-256 of the method, the route's path and the canonical body */
  fingerprint: string;
  method: string;
  path: string;
};

/** The right to answer a key's request, held by one request at a time. */
export type Claim = { scope: string; keyHash: string; claimId: string; key: string };

/**
 * What a key's request created, bound to the key in the transaction that stored it: a retry
 * after the request lost its answer (an outage, a time-out, a gateway restart) answers these
 * scans and creates nothing. `accessToken`: an anonymous scan's link token, which only its
 * maker, and so only the key's retries, may be given again.
 */
export type BoundResource = { scans: string[]; accessToken: string | null };

/** An answer as it is replayed: status, the headers worth repeating, the body's bytes. */
export type StoredAnswer = { status: number; headers: Record<string, string>; body: Buffer };

export type ClaimOutcome =
  /**
   * the first time (or the key expired, or its claim was abandoned): do the work, then complete
   * or release; `resource` when an abandoned claim had already created it: answer that instead
   */
  | { kind: "claimed"; claim: Claim; resource: BoundResource | null }
  /** done before: answer this again */
  | { kind: "replay"; answer: StoredAnswer }
  /** another request with the key is being answered */
  | { kind: "in_progress" }
  /** the key was first sent with another request */
  | { kind: "mismatch"; method: string; path: string };

export type IdempotencyStoreDeps = {
  db: Db;
  /** how long a key and its answer are kept (24 h by default) */
  ttlMs: number;
  /**
   * how long a claim is held unless its request renews it (every third of it, while it runs):
   * a claim not renewed this long is its gateway's that died, and a retry may take it over
   */
  leaseMs: number;
};

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/**
 * The answer's body and headers are encrypted under a key derived from the Idempotency-Key, which
 * is stored only hashed: a copy of the table alone does not give up what the answers held (a new
 * API key's secret, an anonymous scan's access link). Only a retry that presents the key can
 * read them.
 */
const cipherKey = (key: string, scope: string): Buffer =>
  Buffer.from(hkdfSync("sha256", key, scope, "aeo-scan idempotent answer", 32));

const seal = (plain: Buffer, key: string, scope: string): Buffer => {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", cipherKey(key, scope), iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
};

const open = (stored: Buffer, key: string, scope: string): Buffer => {
  const decipher = createDecipheriv("aes-256-gcm", cipherKey(key, scope), stored.subarray(0, 12));
  decipher.setAuthTag(stored.subarray(12, 28));
  return Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]);
};

/** The kept headers, sealed like the body (`{sealed}`): only a retry that presents the key reads them. */
const openHeaders = (stored: Record<string, string> | null, key: string, scope: string): Record<string, string> =>
  stored?.sealed ? JSON.parse(open(Buffer.from(stored.sealed, "base64"), key, scope).toString("utf8")) : {};

const openResource = (stored: Uint8Array | null, key: string, scope: string): BoundResource | null =>
  stored ? (JSON.parse(open(Buffer.from(stored), key, scope).toString("utf8")) as BoundResource) : null;

type Row = {
  fingerprint: string;
  method: string;
  path: string;
  state: "in_progress" | "completed";
  status_code: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
  expired: boolean;
  abandoned: boolean;
};

export type IdempotencyStore = {
  /** Claims the request's key, or says what the key already holds: an answer, a request at work, another body. */
  claim: (request: IdempotentRequest) => Promise<ClaimOutcome>;
  /** Holds the claim another lease: its request is still at work. */
  renew: (held: Claim) => Promise<void>;
  /** Binds what the claim's request created to the key, inside the transaction that stores it. */
  bind: (held: Claim, resource: BoundResource, tx: Tx) => Promise<void>;
  /** Keeps the answer for the key's retries; only the claim's own request can. */
  complete: (held: Claim, answer: StoredAnswer) => Promise<void>;
  /** Forgets the key so a retry does the work again, unless it is bound to what its request created. */
  release: (held: Claim) => Promise<void>;
  /** Deletes up to `limit` expired keys; answers how many went. */
  sweep: (limit?: number) => Promise<number>;
  /** how long a key and its answer are kept */
  ttlMs: number;
  /** how long a claim is held unless its request renews it */
  leaseMs: number;
};

/**
 * Idempotency keys in Postgres, the store of record (a Redis restart, which the queue
 * survives, must not make a retry run twice). The claim is one INSERT ... ON CONFLICT on the
 * primary key (scope, key hash): of any number of concurrent requests with one key, exactly
 * one inserts the row and does the work; the others read it. The row takes the answer when
 * the work is done; a retry then reads it. Times are the database's, so gateways agree.
 */
export const createIdempotencyStore = ({ db, ttlMs, leaseMs }: IdempotencyStoreDeps): IdempotencyStore => {
  const claim = async (request: IdempotentRequest): Promise<ClaimOutcome> => {
    const keyHash = sha256(request.key);
    const { scope, fingerprint, method, path } = request;
    // a row may expire, be released or be taken over between the two statements: claim again
    for (let attempt = 0; attempt < 5; attempt++) {
      const claimId = randomUUID();
      // a row is taken over when it has expired, or when its claim was abandoned by a gateway
      // that died or lost its answer (same request only: another request with the key is
      // refused below); an abandoned claim keeps what it created, for the new claim to answer
      const taken = await db.$queryRaw<Array<{ claim_id: string; resource: Uint8Array | null }>>`
        INSERT INTO idempotency_keys
          (scope, key_hash, fingerprint, method, path, state, claim_id, locked_until, created_at, expires_at)
        VALUES
          (${scope}, ${keyHash}, ${fingerprint}, ${method}, ${path}, 'in_progress', ${claimId}::uuid,
           now() + make_interval(secs => ${leaseMs / 1000}::float8), now(),
           now() + make_interval(secs => ${ttlMs / 1000}::float8))
        ON CONFLICT (scope, key_hash) DO UPDATE SET
          fingerprint = EXCLUDED.fingerprint, method = EXCLUDED.method, path = EXCLUDED.path,
          state = 'in_progress', claim_id = EXCLUDED.claim_id, locked_until = EXCLUDED.locked_until,
          status_code = NULL, response_headers = NULL, response_body = NULL,
          resource = CASE WHEN idempotency_keys.expires_at <= now() THEN NULL ELSE idempotency_keys.resource END,
          created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= now()
           OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.locked_until <= now()
               AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
        RETURNING claim_id, resource`;
      const [won] = taken;
      if (won) {
        return {
          kind: "claimed",
          claim: { scope, keyHash, claimId, key: request.key },
          resource: openResource(won.resource, request.key, scope),
        };
      }
      const [row] = await db.$queryRaw<Row[]>`
        SELECT fingerprint, method, path, state, status_code, response_headers, response_body,
               expires_at <= now() AS expired, locked_until <= now() AS abandoned
        FROM idempotency_keys WHERE scope = ${scope} AND key_hash = ${keyHash}`;
      if (!row || row.expired) continue;
      if (row.fingerprint !== fingerprint) return { kind: "mismatch", method: row.method, path: row.path };
      if (row.state === "in_progress") {
        if (row.abandoned) continue;
        return { kind: "in_progress" };
      }
      return {
        kind: "replay",
        answer: {
          status: row.status_code ?? 200,
          headers: openHeaders(row.response_headers, request.key, scope),
          body: row.response_body ? open(Buffer.from(row.response_body), request.key, scope) : Buffer.alloc(0),
        },
      };
    }
    return { kind: "in_progress" };
  };

  /** Holds the claim another lease: its request is still at work. */
  const renew = async (held: Claim): Promise<void> => {
    await db.$executeRaw`
      UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      WHERE scope = ${held.scope} AND key_hash = ${held.keyHash} AND claim_id = ${held.claimId}::uuid
        AND state = 'in_progress'`;
  };

  /** Keeps the answer for the key's retries; only the claim's own request can. */
  const complete = async (held: Claim, answer: StoredAnswer): Promise<void> => {
    const body = seal(answer.body, held.key, held.scope);
    // the headers are sealed too: an anonymous scan's Location is its access link
    const headers = {
      sealed: seal(Buffer.from(JSON.stringify(answer.headers)), held.key, held.scope).toString("base64"),
    };
    await db.$executeRaw`
      UPDATE idempotency_keys
      SET state = 'completed', status_code = ${answer.status}, response_headers = ${JSON.stringify(headers)}::jsonb,
          response_body = ${body}, locked_until = now()
      WHERE scope = ${held.scope} AND key_hash = ${held.keyHash} AND claim_id = ${held.claimId}::uuid`;
  };

  /**
   * Binds what the claim's request created to the key, inside the transaction that stores it:
   * both are kept or neither. A claim taken over meanwhile (its lease ran out) binds nothing,
   * and the request is refused, so its creation is rolled back: one key, one creation.
   */
  const bind = async (held: Claim, resource: BoundResource, tx: Tx): Promise<void> => {
    const sealed = seal(Buffer.from(JSON.stringify(resource)), held.key, held.scope);
    const bound = await tx.$executeRaw`
      UPDATE idempotency_keys SET resource = ${sealed}
      WHERE scope = ${held.scope} AND key_hash = ${held.keyHash} AND claim_id = ${held.claimId}::uuid`;
    if (bound === 0) throw new ClaimLostError();
  };

  /**
   * Forgets the key: the work gave no answer worth repeating (a 5xx, a "try again"), so a retry
   * does it again. A key bound to what its request created is not forgotten: its claim is given
   * up at once, and a retry answers what was created.
   */
  const release = async (held: Claim): Promise<void> => {
    await db.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE scope = ${held.scope} AND key_hash = ${held.keyHash} AND claim_id = ${held.claimId}::uuid
        AND resource IS NULL`;
    await db.$executeRaw`
      UPDATE idempotency_keys SET locked_until = now()
      WHERE scope = ${held.scope} AND key_hash = ${held.keyHash} AND claim_id = ${held.claimId}::uuid
        AND state = 'in_progress'`;
  };

  /** Deletes up to `limit` expired keys; answers how many went. */
  const sweep = (limit = 5_000): Promise<number> =>
    db.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ${limit})`;

  return { claim, renew, bind, complete, release, sweep, ttlMs, leaseMs };
};
