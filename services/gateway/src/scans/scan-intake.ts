import type { Plan } from "@scan/contract";
import { AppError, normaliseScanUrl, siteOriginOf } from "@scan/contract";
import type { Db } from "@scan/db";
import { type PortPolicy, type Resolve, vetTarget } from "@scan/platform";
import { MAX_SCAN_PRIORITY, scanJob, scanPriority } from "@scan/queue";
import { type NewScan, scans as scanRows } from "@scan/records";
import type { Queue } from "bullmq";
import { type AccountCaller, keyIdOf, ownerOf } from "../access/authenticate";
import { type Tx, withUserLock } from "../access/user-lock";
import { clientScansThisMonth, quotaMonth, scansThisMonth } from "./monthly-quota";

/** Work done in the transaction that stores new scans: an Idempotency-Key bound to them. */
export type OnStored = (tx: Tx) => Promise<void>;

export type ScanIntakeDeps = {
  db: Db;
  queue: Queue;
  allowlist: ReadonlySet<string>;
  ports: PortPolicy;
  resolve: Resolve;
  /** scans per calendar month (UTC) by plan; null is unlimited */
  monthlyQuotas: Record<Plan, number | null>;
  /** callbacks are signed with WEBHOOK_SECRET; without one, callback_url is refused */
  callbacksEnabled: boolean;
  /** how much each waiting scan of a caller on this plan pushes that caller's next one back */
  priorityWeights: PriorityWeights;
};

export type PriorityWeights = Record<Plan | "anonymous", number>;

export type { NewScan };

export type ScanIntake = {
  /** Refuses private and reserved targets before anything is stored or queued. */
  assertScannable: (url: string) => Promise<void>;
  /** Why the address policy refuses a target, or null when it may be scanned (a name that does not resolve fails in its scan). */
  refusalOf: (url: string) => Promise<string | null>;
  /** A callback URL is a delivery URL, and wants a WEBHOOK_SECRET to sign with. */
  vetCallback: (input: string) => Promise<string>;
  /** A URL the service will POST to follows a scan target's rules and must resolve now; refusals name `field`. */
  vetDeliveryUrl: (input: string, field: string, hint: string) => Promise<string>;
  /** Stores the scans within the owner's monthly quota, `onStored` in the same transaction, and answers their queue priorities. */
  storeWithPriorities: (
    scans: readonly NewScan[],
    owner: AccountCaller | null,
    callbackUrl: string | null,
    onStored?: OnStored,
  ) => Promise<number[]>;
  /** Queues stored scans; false when the queue cannot take them now (the reaper queues them from their rows later). */
  enqueue: (scans: readonly NewScan[], priorities: readonly number[]) => Promise<boolean>;
};

/**
 * What every new scan goes through, alone or in a batch: its target and callback are vetted,
 * its row is stored within the owner's monthly quota, and its job is queued with a priority.
 */
export const createScanIntake = ({
  db,
  queue,
  allowlist,
  ports,
  resolve,
  monthlyQuotas,
  callbacksEnabled,
  priorityWeights,
}: ScanIntakeDeps): ScanIntake => {
  const refusalOf = async (url: string): Promise<string | null> => {
    const verdict = await vetTarget(new URL(url), { allowlist, resolve, ports });
    // a name that does not resolve is the target's failure, reported by the scan itself (502)
    return !verdict.allowed && !verdict.reason.startsWith("unresolvable") ? verdict.reason : null;
  };

  /** Refuses private and reserved targets before anything is stored or queued. */
  const assertScannable = async (url: string): Promise<void> => {
    const refusal = await refusalOf(url);
    if (refusal !== null) {
      throw new AppError(
        "invalid_request",
        `url is not scannable: ${refusal}`,
        "Scan a public http(s) address; private, loopback and reserved addresses are refused.",
      );
    }
  };

  /**
   * The client each scan counts for: a client-scoped key's client, else the client of the
   * workspace's site whose origin the URL is on (none when no site of a client has it).
   */
  const clientsOf = async (tx: Tx, owner: AccountCaller, scans: readonly NewScan[]) => {
    const byScan = new Map<string, string>();
    if (owner.kind === "key" && owner.clientId !== null) {
      for (const scan of scans) byScan.set(scan.id, owner.clientId);
      return byScan;
    }
    const origins = new Map(scans.map((scan) => [scan.id, siteOriginOf(scan.url).url]));
    const sites = await tx.site.findMany({
      where: { workspaceId: owner.workspaceId, url: { in: [...new Set(origins.values())] }, clientId: { not: null } },
      select: { url: true, clientId: true },
    });
    const clientByOrigin = new Map(sites.map((site) => [site.url, site.clientId]));
    for (const [scanId, origin] of origins) {
      const clientId = clientByOrigin.get(origin);
      if (clientId) byScan.set(scanId, clientId);
    }
    return byScan;
  };

  /** Refuses scans beyond this month's quota of any client they count for; under the workspace's scan lock. */
  const assertClientQuotas = async (tx: Tx, byScan: ReadonlyMap<string, string>, now: Date) => {
    const asked = new Map<string, number>();
    for (const clientId of byScan.values()) asked.set(clientId, (asked.get(clientId) ?? 0) + 1);
    if (asked.size === 0) return;
    const limited = await tx.client.findMany({
      where: { id: { in: [...asked.keys()] }, scanQuota: { not: null } },
      select: { id: true, name: true, scanQuota: true },
    });
    for (const client of limited) {
      const quota = client.scanQuota ?? 0;
      const wanted = asked.get(client.id) ?? 0;
      const used = await clientScansThisMonth(tx, client.id, now);
      if (used + wanted > quota) {
        throw new AppError(
          "plan_limit",
          wanted > 1
            ? `The client ${client.name}'s quota of ${quota} scans this month has ${Math.max(0, quota - used)} left, fewer than the ${wanted} asked for`
            : `The client ${client.name}'s quota of ${quota} scans this month is used up`,
          `The client's quota resets at ${quotaMonth(now).resetsAt.toISOString()}; a member of the workspace can raise it (PATCH /api/v1/clients/{id} {"scan_quota"}).`,
        );
      }
    }
  };

  /**
   * Stores scan rows, all or none, with `onStored` in the same transaction, each counted for its
   * client; for a key holder, under a per-workspace lock that counts this month's scans first (the
   * plan's quota, then each client's), so concurrent requests cannot overrun either quota.
   */
  const storeAll = async (
    scans: readonly NewScan[],
    owner: AccountCaller | null,
    callbackUrl: string | null,
    onStored?: OnStored,
  ) => {
    // keepSnapshot is stored too: a scan the queue lost is queued again from its row
    const stored = { owner: owner ? { ...ownerOf(owner), apiKeyId: keyIdOf(owner) } : null, callbackUrl };
    if (!owner) {
      if (!onStored) return scanRows.insertQueued(db, scans, stored);
      return db.$transaction(async (tx) => {
        const inserted = await scanRows.insertQueued(tx, scans, stored);
        await onStored(tx);
        return inserted;
      });
    }
    const quota = monthlyQuotas[owner.plan];
    // the lock is held whatever the quotas: a client's quota may be set at any moment
    return withUserLock(db, "scan-quota", owner.workspaceId, async (tx) => {
      const now = new Date();
      if (quota !== null) {
        const used = await scansThisMonth(tx, owner.workspaceId, now);
        if (used + scans.length > quota) {
          const nextMonth = quotaMonth(now).resetsAt;
          throw new AppError(
            "plan_limit",
            scans.length > 1
              ? `The ${owner.plan} plan's quota of ${quota} scans this month has ${Math.max(0, quota - used)} left, fewer than the ${scans.length} asked for`
              : `The ${owner.plan} plan's quota of ${quota} scans this month is used up`,
            `The quota resets at ${nextMonth.toISOString()}; a higher plan has a larger quota.`,
          );
        }
      }
      const clients = await clientsOf(tx, owner, scans);
      await assertClientQuotas(tx, clients, now);
      const inserted = await scanRows.insertQueued(tx, scans, { ...stored, clients });
      await onStored?.(tx);
      return inserted;
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
  const prioritiesFor = async (owner: AccountCaller | null, scans: readonly NewScan[]): Promise<number[]> => {
    const weight = priorityWeights[owner?.plan ?? "anonymous"];
    const waiting = await db.scan.count({
      where: { workspaceId: owner?.workspaceId ?? null, status: "queued", id: { notIn: scans.map((scan) => scan.id) } },
    });
    return scans.map((_, i) => scanPriority(waiting + i, weight));
  };

  /** Stores the scans and works out their queue priorities, the two queries side by side. */
  const storeWithPriorities = async (
    scans: readonly NewScan[],
    owner: AccountCaller | null,
    callbackUrl: string | null,
    onStored?: OnStored,
  ): Promise<number[]> => {
    const [priorities] = await Promise.all([
      prioritiesFor(owner, scans),
      storeAll(scans, owner, callbackUrl, onStored),
    ]);
    return priorities;
  };

  /**
   * Queues stored scans; answers false when the queue cannot take them now (Redis away). Their
   * rows stay queued and the worker's reaper queues them from the rows once the queue is back,
   * as it does for jobs the queue lost: a stored scan is never failed for the queue's sake,
   * and its caller is told its id.
   */
  const enqueue = async (scans: readonly NewScan[], priorities: readonly number[]): Promise<boolean> => {
    try {
      await queue.addBulk(scans.map((scan, i) => scanJob(scan, priorities[i] ?? MAX_SCAN_PRIORITY)));
      return true;
    } catch {
      return false;
    }
  };

  /**
   * A URL the service will POST to (a callback, an alert's webhook or Slack URL) follows a scan
   * target's rules (absolute http(s), no credentials, public unless allowlisted), and must
   * resolve now: one that cannot be delivered is refused when given, not discovered later.
   */
  const vetDeliveryUrl = async (input: string, field: string, hint: string): Promise<string> => {
    const normalised = normaliseScanUrl(input, "A");
    if (!normalised.ok)
      throw new AppError("invalid_request", `${field}: ${normalised.reason.replace(/^url /, "")}`, hint);
    const verdict = await vetTarget(new URL(normalised.url), { allowlist, resolve, ports });
    if (!verdict.allowed) throw new AppError("invalid_request", `${field} is not allowed: ${verdict.reason}`, hint);
    return normalised.url;
  };

  /** A callback URL is a delivery URL, and wants a WEBHOOK_SECRET to sign with. */
  const vetCallback = async (input: string): Promise<string> => {
    if (!callbacksEnabled) {
      throw new AppError(
        "invalid_request",
        "callback_url is not available: this deployment has no WEBHOOK_SECRET to sign callbacks with",
        "Poll GET /api/v1/scan/:id instead, or ask the operator to set WEBHOOK_SECRET.",
      );
    }
    return vetDeliveryUrl(
      input,
      "callback_url",
      "Give an absolute, public http(s) URL that accepts a POST with the finished scan.",
    );
  };

  return { assertScannable, refusalOf, vetCallback, vetDeliveryUrl, storeWithPriorities, enqueue };
};
