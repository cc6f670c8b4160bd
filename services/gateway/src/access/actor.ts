import type { Actor } from "@scan/records";
import type { Request, Response } from "express";
import type { AccountCaller } from "./authenticate";

export type { Actor };

/** Who makes a change, as the audit log records it: the member or the key, and the request it came in. */
export const actorOf = (caller: AccountCaller, req: Request, res: Response): Actor => ({
  userId: caller.userId,
  keyId: caller.kind === "key" ? caller.keyId : null,
  requestId: typeof res.locals.requestId === "string" ? res.locals.requestId : null,
  ip: req.ip ?? null,
});

/** A member acting outside any request: the accounts CLI, the demo seed. */
export const actorOutsideRequests = (userId: string): Actor => ({ userId, keyId: null, requestId: null, ip: null });

/** The caller of an MCP tool: the request id of its JSON-RPC call, no address (the tool server's transport keeps it). */
export const actorOfTool = (caller: AccountCaller, requestId: string): Actor => ({
  userId: caller.userId,
  keyId: caller.kind === "key" ? caller.keyId : null,
  requestId,
  ip: null,
});
