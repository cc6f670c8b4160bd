/**
 * The queue contract between the gateway, which queues jobs, and the worker, which runs them:
 * queue names, job payloads, the jobs' builders with their BullMQ options, and priorities.
 */
export * from "./audit-jobs";
export * from "./job-kinds";
export * from "./priority";
export * from "./scan-job";
export * from "./visibility-jobs";
export * from "./webhook-job";
