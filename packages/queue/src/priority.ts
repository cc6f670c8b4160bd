import type { Plan } from "@scan/contract";
import { z } from "zod";

/** BullMQ's largest priority (lowest urgency): 2^21 - 1, the largest its `add` accepts */
export const MAX_SCAN_PRIORITY = 2_097_151;

/**
 * The priority of every audit page: below every interactive scan, which is capped one above it,
 * so a caller waiting for a scan never waits behind an audit's backlog (only behind the pages
 * already running). Among audit pages BullMQ keeps the order they were queued in, which is
 * breadth-first: the start page and the sitemaps' pages, then the links of each page scanned.
 */
export const AUDIT_PAGE_PRIORITY = MAX_SCAN_PRIORITY - 1;
/** the lowest urgency an interactive scan gets: always ahead of audit pages */
export const INTERACTIVE_PRIORITY_CEILING = MAX_SCAN_PRIORITY - 2;

/** Who a scan is queued for, for its priority: a plan, or nobody (no key). */
export type PriorityClass = Plan | "anonymous";
export type PriorityWeights = Record<PriorityClass, number>;

/**
 * `PLAN_PRIORITY_WEIGHTS` (`agency=1,pro=2,...`), read by the gateway, which queues scans, and
 * the worker, which queues again the scans Redis lost: both must order them the same way.
 */
export const PlanPriorityWeights = z
  .string()
  .default("agency=1,pro=2,starter=4,free=8,anonymous=16")
  .transform((value, ctx) => {
    const weights: Record<string, number> = {};
    for (const entry of value.split(",")) {
      const match = /^\s*(agency|pro|starter|free|anonymous)\s*=\s*(\d{1,4})\s*$/.exec(entry);
      if (!match?.[1] || !match[2] || Number(match[2]) < 1) {
        ctx.addIssue({ code: "custom", message: `"${entry}" is not plan=weight (a whole number from 1)` });
        return z.NEVER;
      }
      weights[match[1]] = Number(match[2]);
    }
    const missing = ["agency", "pro", "starter", "free", "anonymous"].filter((plan) => !(plan in weights));
    if (missing.length > 0) {
      ctx.addIssue({ code: "custom", message: `needs a weight for ${missing.join(", ")}` });
      return z.NEVER;
    }
    return weights as PriorityWeights;
  });

/**
 * Queue order among waiting scans: a caller's n-th waiting scan (counting from 0) gets
 * priority 1 + n × weight(plan), BullMQ running lower numbers first.
 */
export const scanPriority = (waitingAhead: number, weight: number): number =>
  Math.min(INTERACTIVE_PRIORITY_CEILING, 1 + waitingAhead * weight);
