import { randomUUID } from "node:crypto";
import type { PageMeta, Plan, ScanListQuery } from "@scan/contract";
import {
  AppError,
  MAX_SCAN_PRIORITY,
  normaliseScanUrl,
  offsetOf,
  pageMeta,
  type ScanMode,
  scanJob,
  scanPriority,
} from "@scan/contract";
import type { Db, Scan, WebhookDelivery } from "@scan/db";
import { type PortPolicy, type Resolve, vetTarget } from "@scan/platform";
import type { Queue } from "bullmq";
import type { Admission } from "./admission";
import type { KeyCaller } from "./authenticate";
import type { ScanWaiter } from "./scan-waiter";
import { withUserLock } from "./user-lock";

export type ScanServiceDeps = {
  db: Db;
  queue: Queue;
  waiter: ScanWaiter;
  allowlist: ReadonlySet<string>;
  ports: PortPolicy;
  resolve: Resolve;
  waitMs: number;
  /** scans per calendar month (UTC) by plan; null is unlimited */
  monthlyQuotas: Record<Plan, number | null>;
  /** callbacks are signed with WEBHOOK_SECRET; without one, callback_url is refused */
  callbacksEnabled: boolean;
  /** how much each waiting scan of a caller on this plan pushes that caller's next one back */
  priorityWeights: PriorityWeights;
  /** refuses waiting callers whose scan cannot finish in their budget; null: no admission control */
  admission: Admission | null;
};

export type PriorityWeights = Record<Plan | "anonymous", number>;

export type SubmittedScan = { scan: Scan; finished: boolean };

const TERMINAL = ["completed", "failed"] as const;

export const isTerminal = (scan: Pick<Scan, "status">): boolean =>
  (TERMINAL as readonly string[]).includes(scan.status);

/** Which of these scans have finished: the waiter's fallback when an event is missed. */
export const terminalScansAmong =
  (db: Db) =>
  async (ids: readonly string[]): Promise<ReadonlySet<string>> => {
    const rows = await db.scan.findMany({
      where: { id: { in: [...ids] }, status: { in: [...TERMINAL] } },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  };

/** Creates, queues, waits for and reads scans. The scan row, not the job, is the record. */
export const createScanService = ({
  db,
  queue,
  waiter,
  allowlist,
  ports,
  resolve,
  waitMs,
  monthlyQuotas,
  callbacksEnabled,
  priorityWeights,
  admission,
}: ScanServiceDeps) => {
  /** Refuses private and reserved targets before anything is stored or queued. */
  const assertScannable = async (url: string): Promise<void> => {
    const verdict = await vetTarget(new URL(url), allowlist, resolve, ports);
    // a name that does not resolve is the target's failure, reported by the scan itself (502)
    if (!verdict.allowed && !verdict.reason.startsWith("unresolvable")) {
      throw new AppError(
        "invalid_request",
        `url is not scannable: ${verdict.reason}`,
        "Scan a public http(s) address; private, loopback and reserved addresses are refused.",
      );
    }
  };

  /** `keepSnapshot` asks the worker to keep the captured page for the generators (fix, generate) */
  type NewScan = { id: string; url: string; mode: ScanMode; requestId: string; keepSnapshot?: boolean };

  /**
   * Stores scan rows, all or none; for a key holder, under a per-user lock that counts this
   * month's scans first, so concurrent requests cannot overrun the quota.
   */
  const storeAll = async (scans: readonly NewScan[], owner: KeyCaller | null, callbackUrl: string | null) => {
    // keepSnapshot is stored too: a scan the queue lost is queued again from its row
    const rows = scans.map((scan) => ({
      ...scan,
      status: "queued" as const,
      callbackUrl,
      callbackState: callbackUrl ? ("pending" as const) : null,
      ...(owner ? { userId: owner.userId, apiKeyId: owner.keyId } : {}),
    }));
    const quota = owner ? monthlyQuotas[owner.plan] : null;
    if (!owner || quota === null) return db.scan.createMany({ data: rows });
    return withUserLock(db, "scan-quota", owner.userId, async (tx) => {
      const now = new Date();
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const used = await tx.scan.count({
        where: {
          userId: owner.userId,
          createdAt: { gte: monthStart },
          // a scan the service could not queue was never run: it does not count
          OR: [{ errorCode: null }, { errorCode: { not: "service_unavailable" } }],
        },
      });
      if (used + rows.length > quota) {
        const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
        throw new AppError(
          "plan_limit",
          rows.length > 1
            ? `The ${owner.plan} plan's quota of ${quota} scans this month has ${Math.max(0, quota - used)} left, fewer than the ${rows.length} asked for`
            : `The ${owner.plan} plan's quota of ${quota} scans this month is used up`,
          `The quota resets at ${nextMonth.toISOString()}; a higher plan has a larger quota.`,
        );
      }
      return tx.scan.createMany({ data: rows });
    });
  };

  /**
   * Queue order among waiting scans: a caller's n-th waiting scan (counting from 0) gets
   * priority 1 + n × weight(plan), BullMQ running lower numbers first. A caller's first waiting
   * scan goes ahead of every other caller's backlog, and over a backlog each plan gets slots in
   * inverse proportion to its weight (Agency 1, Free 8 by default: eight Agency scans for one
   * Free scan), so a flood from one caller or plan slows the others without starving them.
   * The scans being submitted are left out of the count, so it can run beside their insert.
   */
  const prioritiesFor = async (owner: KeyCaller | null, scans: readonly NewScan[]): Promise<number[]> => {
    const weight = priorityWeights[owner?.plan ?? "anonymous"];
    const waiting = await db.scan.count({
      where: { userId: owner?.userId ?? null, status: "queued", id: { notIn: scans.map((scan) => scan.id) } },
    });
    return scans.map((_, i) => scanPriority(waiting + i, weight));
  };

  /** Stores the scans and works out their queue priorities, the two queries side by side. */
  const storeWithPriorities = async (
    scans: readonly NewScan[],
    owner: KeyCaller | null,
    callbackUrl: string | null,
  ): Promise<number[]> => {
    const [priorities] = await Promise.all([prioritiesFor(owner, scans), storeAll(scans, owner, callbackUrl)]);
    return priorities;
  };

  /** Queues stored scans; when the queue cannot take them they are failed, and the caller gets a 503. */
  const enqueue = async (scans: readonly NewScan[], priorities: readonly number[], callbackUrl: string | null) => {
    try {
      await queue.addBulk(scans.map((scan, i) => scanJob(scan, priorities[i] ?? MAX_SCAN_PRIORITY)));
    } catch {
      await db.scan.updateMany({
        where: { id: { in: scans.map((scan) => scan.id) } },
        data: {
          status: "failed",
          errorCode: "service_unavailable",
          errorMessage: "The scan queue was unavailable",
          completedAt: new Date(),
          // the caller hears of it in the 503; nothing will be delivered
          callbackState: callbackUrl ? "failed" : null,
        },
      });
      throw new AppError("service_unavailable", "The scan queue is unavailable", "Try again in a few seconds.", {
        "Retry-After": "5",
      });
    }
  };

  /**
   * A callback URL follows a scan target's rules (absolute http(s), no credentials, public
   * unless allowlisted), and must resolve now: a callback that cannot be delivered is refused
   * before the scan is queued, not discovered after it has run.
   */
  const vetCallback = async (input: string): Promise<string> => {
    const hint = "Give an absolute, public http(s) URL that accepts a POST with the finished scan.";
    if (!callbacksEnabled) {
      throw new AppError(
        "invalid_request",
        "callback_url is not available: this deployment has no WEBHOOK_SECRET to sign callbacks with",
        "Poll GET /api/v1/scan/:id instead, or ask the operator to set WEBHOOK_SECRET.",
      );
    }
    const normalised = normaliseScanUrl(input, "A");
    if (!normalised.ok)
      throw new AppError("invalid_request", `callback_url: ${normalised.reason.replace(/^url /, "")}`, hint);
    const verdict = await vetTarget(new URL(normalised.url), allowlist, resolve, ports);
    if (!verdict.allowed) throw new AppError("invalid_request", `callback_url is not allowed: ${verdict.reason}`, hint);
    return normalised.url;
  };

  /**
   * Stores and queues a scan, then waits for it up to the budget, or not at all when the
   * caller asked to be answered at once (`Prefer: respond-async`). A waiting caller whose scan
   * cannot finish within its budget (`budgetMs`, at most SCAN_WAIT_MS) is refused with 429
   * before anything is stored.
   */
  const submit = async (
    input: {
      url: string;
      mode: ScanMode;
      requestId: string;
      callbackUrl?: string;
      respondAsync?: boolean;
      budgetMs?: number;
      keepSnapshot?: boolean;
    },
    owner: KeyCaller | null,
    signal: AbortSignal,
  ): Promise<SubmittedScan> => {
    await assertScannable(input.url);
    const callbackUrl = input.callbackUrl === undefined ? null : await vetCallback(input.callbackUrl);
    const budgetMs = Math.min(waitMs, input.budgetMs ?? waitMs);
    if (!input.respondAsync && admission) {
      const verdict = await admission.decide(input.mode, budgetMs);
      if (!verdict.admit) {
        throw new AppError(
          "rate_limited",
          `The scan queue is too long for a result within ${Math.round(budgetMs / 1000)} s (expected in about ${Math.ceil(verdict.predictedMs / 1000)} s)`,
          "Retry later, or send Prefer: respond-async to queue the scan and poll for it.",
          { "Retry-After": String(verdict.retryAfterS) },
        );
      }
    }
    const scan: NewScan = {
      id: randomUUID(),
      url: input.url,
      mode: input.mode,
      requestId: input.requestId,
      ...(input.keepSnapshot ? { keepSnapshot: true } : {}),
    };
    const priorities = await storeWithPriorities([scan], owner, callbackUrl);
    const finished = input.respondAsync ? Promise.resolve(false) : waiter.wait(scan.id, budgetMs, signal);
    await enqueue([scan], priorities, callbackUrl);
    await finished;
    // read the row whatever woke us: the events are best effort, the row is the truth
    const stored = await db.scan.findUniqueOrThrow({ where: { id: scan.id } });
    if (stored.status === "completed" && stored.startedAt && stored.completedAt) {
      admission?.record(stored.mode, stored.completedAt.getTime() - stored.startedAt.getTime());
    }
    return { scan: stored, finished: isTerminal(stored) };
  };

  /**
   * Stores and queues many scans at once, all or none: every URL is checked first (the first
   * one at fault is named by its index), then the quota is checked for all of them. Callers
   * poll each scan or give a callback_url; nobody waits here.
   */
  const submitBatch = async (
    input: { urls: readonly string[]; mode: ScanMode; requestId: string; callbackUrl?: string },
    owner: KeyCaller,
  ): Promise<Scan[]> => {
    const refusals = await Promise.all(
      input.urls.map((url, i) =>
        assertScannable(url).then(
          () => null,
          (error: unknown) => {
            if (error instanceof AppError) return `urls[${i}]: ${error.message}`;
            throw error;
          },
        ),
      ),
    );
    const refused = refusals.filter((reason): reason is string => reason !== null);
    if (refused.length > 0) {
      throw new AppError(
        "invalid_request",
        refused.slice(0, 5).join("; "),
        "Scan public http(s) addresses; private, loopback and reserved addresses are refused.",
      );
    }
    const callbackUrl = input.callbackUrl === undefined ? null : await vetCallback(input.callbackUrl);
    const scans: NewScan[] = input.urls.map((url) => ({
      id: randomUUID(),
      url,
      mode: input.mode,
      requestId: input.requestId,
    }));
    const priorities = await storeWithPriorities(scans, owner, callbackUrl);
    await enqueue(scans, priorities, callbackUrl);
    const rows = await db.scan.findMany({ where: { id: { in: scans.map((scan) => scan.id) } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return scans.map((scan) => byId.get(scan.id)).filter((row): row is Scan => row !== undefined);
  };

  /** The key holder's scans, newest first; the id breaks ties, so pages neither repeat nor skip. */
  const list = async (userId: string, query: ScanListQuery): Promise<{ scans: Scan[]; meta: PageMeta }> => {
    const where = { userId, ...(query.status === undefined ? {} : { status: query.status }) };
    const [total, scans] = await db.$transaction(
      [
        db.scan.count({ where }),
        db.scan.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: offsetOf(query),
          take: query.limit,
        }),
      ],
      { isolationLevel: "RepeatableRead" },
    );
    return { scans, meta: pageMeta(query, total) };
  };

  /**
   * A scan the viewer may see: their own, or an anonymous one (owned by nobody; its v4 UUID is
   * unguessable and was only ever given to whoever made it). Another user's scan is 404, the
   * same answer as a missing one.
   */
  const get = async (id: string, viewerUserId: string): Promise<Scan> => {
    const scan = await db.scan.findFirst({ where: { id, OR: [{ userId: viewerUserId }, { userId: null }] } });
    if (!scan) throw new AppError("not_found", `No scan with id ${id}`, "Use the id returned by POST /api/v1/scan.");
    return scan;
  };

  /** The callback attempts of a scan, oldest first. */
  const deliveries = (scanId: string): Promise<WebhookDelivery[]> =>
    db.webhookDelivery.findMany({ where: { scanId }, orderBy: [{ attempt: "asc" }, { createdAt: "asc" }] });

  return { submit, submitBatch, list, get, deliveries };
};

export type ScanService = ReturnType<typeof createScanService>;
