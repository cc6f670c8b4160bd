import { AppError } from "@scan/contract";
import { type Request, type RequestHandler, type Response, Router } from "express";
import type { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiParameters } from "zod-openapi";
import type { AccountCaller, Caller, UserCaller } from "../access/authenticate";
import { assertMayWrite, type KeyReach, type KeyScope } from "../access/key-scope";
import { type Answer, sendAnswer } from "./answer";
import { methodNotAllowed } from "./errors";
import { type BodyMediaType, type BodySent, type BodySpec, type InputSpec, parseBody, parseInput } from "./route-input";

/** The REST API: every request under it is authenticated and counted before any route runs (api-access). */
export const API_PREFIX = "/api/v1";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** An operator's check on an endpoint outside the API: throws the refusal, or returns to let the request on. */
export type Guard = { guard: (req: Request, res: Response) => void };

/**
 * Who may call a route. Under /api/v1, a kind of caller: the access middleware authenticates
 * every request with the credential its path takes and counts it before any route runs, and
 * refuses anonymous callers where no route on the path admits them. Outside /api/v1, `public`
 * or an operator's guard.
 */
export type Authorization =
  /** anonymous callers (counted per address) as well as API key holders (counted per key) */
  | "anyone"
  /** the holder of an API key, or a user signed in to the dashboard (a JWT of a session) */
  | "account"
  /**
   * an account (an API key or a session's JWT), or an anonymous caller presenting an access
   * link (the `access` query parameter: reading an anonymous scan, counted per address in a
   * window of its own)
   */
  | "account-or-link"
  /**
   * an account, or a browser signed in to the dashboard presenting only its session cookie: the
   * progress streams, which a browser's EventSource opens without any header of ours
   */
  | "account-or-cookie"
  /** a user signed in with a JWT: the key endpoints, and every path under theirs */
  | "user-jwt"
  /** a user with the operator role, signed in with a JWT; members are refused with 403 */
  | "operator"
  /** outside /api/v1: no authentication, no rate limit (probes, the API reference) */
  | "public"
  | Guard;

type CallerKind = "anyone" | "account" | "account-or-link" | "account-or-cookie" | "user-jwt" | "operator";

type CallerOf<A> = A extends "anyone" | "account-or-link"
  ? Caller
  : A extends "account" | "account-or-cookie"
    ? AccountCaller
    : A extends "user-jwt" | "operator"
      ? UserCaller
      : undefined;

type Parsed<S extends z.ZodType> = [S] extends [never] ? undefined : z.output<S>;

/** What a handler is given: its caller and inputs, already checked, and the express pair to answer on. */
export type RouteInput<A extends Authorization, P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  caller: CallerOf<A>;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  req: Request;
  res: Response;
};

/**
 * The route's operation in the API reference (docs/openapi.ts renders it). Its path and query
 * parameters and its JSON body are the route's own schemas; its security follows its
 * authorization unless given (a route outside /api/v1 names its own).
 */
export type RouteDocs = Pick<ZodOpenApiOperationObject, "description" | "security" | "callbacks" | "responses"> & {
  operationId: string;
  tags: [string];
  summary: string;
  /** the request headers it reads */
  headers?: ZodOpenApiParameters["header"];
  /** path parameters it reads without a schema of its own */
  path?: ZodOpenApiParameters["path"];
};

export type RouteDeclaration<A extends Authorization, P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  method: Method;
  /** an express path: `/api/v1/scan/:id` */
  path: string;
  authorization: A;
  params?: InputSpec<P>;
  query?: InputSpec<Q>;
  body?: BodySpec<B>;
  /** the largest JSON body in bytes, when it is not the server's BODY_LIMIT_BYTES */
  maxContentLength?: number;
  /** a POST that creates something: a retry with the same Idempotency-Key answers the first answer again */
  idempotent?: boolean;
  /**
   * a read a dashboard session makes here is not counted on the session's read budget (its
   * headers show that budget as it stands): the Account page, which explains the limits and
   * must answer while that budget is spent. Only a GET; keys and changes are counted as ever.
   */
  uncountedForSessions?: boolean;
  /**
   * a write that changes only the caller's own standing, not a workspace's records (switching the
   * session's workspace, accepting an invitation): a viewer may make it
   */
  viewerMayWrite?: boolean;
  /**
   * what a client-scoped API key reaches through it (access/key-scope.ts `KEY_REACH`); a route
   * under a record's own path (`/api/v1/sites/:id/...`) reaches that record without saying so
   */
  reach?: KeyReach;
  /** its operation in the API reference */
  docs?: RouteDocs;
};

/**
 * What runs around a route's handler once its inputs are parsed and before any work: the
 * idempotency layer, which may answer instead (`proceed` not called) or watch the answer.
 */
export type Around = (route: Route, req: Request, res: Response, proceed: () => Promise<void>) => Promise<void>;

/** A declared route, ready to mount; the access middleware and the body parser read its declaration. */
export type Route = {
  method: Method;
  path: string;
  authorization: Authorization;
  maxContentLength?: number;
  idempotent: boolean;
  uncountedForSessions: boolean;
  viewerMayWrite: boolean;
  /** the schemas it reads, for its operation in the API reference */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: { schema: z.ZodType; optional: boolean; mediaType: BodyMediaType };
  docs?: RouteDocs;
  /** what a client-scoped API key reaches through it, when declared */
  reach?: KeyReach | undefined;
  /**
   * the express handlers to mount: the guard, if any, then the work, with `around` inside it;
   * `scope` refuses a client-scoped key what is outside its client before the work runs
   */
  handlers: (around?: Around, scope?: KeyScope) => RequestHandler[];
};

/** Whether the request carried a body, and as what: for the 400 of a body the JSON parser left unread. */
const bodySent = (req: Request): BodySent => ({
  contentType: req.get("content-type"),
  hasBody: req.get("transfer-encoding") !== undefined || (req.get("content-length") ?? "0") !== "0",
});

const CALLER_KINDS: readonly Authorization[] = [
  "anyone",
  "account",
  "account-or-link",
  "account-or-cookie",
  "user-jwt",
  "operator",
];

const isCallerKind = (authorization: Authorization): authorization is CallerKind =>
  CALLER_KINDS.includes(authorization);

/** What a viewer may send: the methods that change nothing. */
const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

const isApiPath = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

/** The caller the access middleware let through; it lets no one else this far, and this keeps the rule next to its use. */
const callerFor = (authorization: Authorization, viewerMayWrite: boolean, res: Response): Caller | undefined => {
  if (!isCallerKind(authorization)) return undefined;
  const caller: Caller | undefined = res.locals.caller;
  if (authorization === "user-jwt" && caller?.kind !== "user") {
    throw new AppError("unauthenticated", "The key endpoints need a JWT");
  }
  if (authorization === "operator") {
    if (caller?.kind !== "user") throw new AppError("unauthenticated", "This endpoint needs a signed-in user's JWT");
    if (caller.role !== "operator") {
      throw new AppError(
        "forbidden",
        "This endpoint is for operators",
        "Ask an operator to give your account the operator role (pnpm accounts set-role).",
      );
    }
  }
  if (
    caller?.kind === "user" &&
    caller.workspaceRole === "viewer" &&
    !viewerMayWrite &&
    !READ_METHODS.has(res.req.method)
  ) {
    // a viewer reads the workspace and changes nothing of it, whatever the endpoint
    throw new AppError(
      "forbidden",
      "Your role in this workspace is viewer, which reads and does not write",
      "Ask an owner or admin of the workspace for the member role, or switch to a workspace where you have it.",
    );
  }
  // a read-only key reads and writes nothing, whatever the endpoint (access/key-scope.ts)
  assertMayWrite(caller, res.req.method);
  if (
    caller === undefined ||
    ((authorization === "account" || authorization === "account-or-cookie") && caller.kind === "anonymous") ||
    (authorization === "account-or-link" && caller.kind === "anonymous" && typeof res.req.query.access !== "string")
  ) {
    throw new AppError("unauthenticated", "This endpoint needs an API key");
  }
  return caller;
};

/** The guard as middleware, for what is mounted whole rather than declared route by route (the queue dashboard). */
export const guarded =
  ({ guard }: Guard): RequestHandler =>
  (req, res, next) => {
    guard(req, res);
    next();
  };

/**
 * Declares a route: what it takes, who may call it, and its operation in the API reference.
 * The handler runs only for a caller the authorization admits, with the path parameters, query
 * and body parsed by their schemas (in that order; the first at fault is the 400), and only
 * does the work: it returns its data, which is answered here in the request's envelope (see
 * http/answer.ts for other statuses, headers and pages), or answers on `res` itself.
 */
export const route = <
  A extends Authorization,
  P extends z.ZodType = never,
  Q extends z.ZodType = never,
  B extends z.ZodType = never,
>(
  declaration: RouteDeclaration<A, P, Q, B>,
  handler: (input: RouteInput<A, P, Q, B>) => Answer | Promise<Answer>,
): Route => {
  const {
    method,
    path,
    authorization,
    params,
    query,
    body,
    maxContentLength,
    idempotent = false,
    uncountedForSessions = false,
    viewerMayWrite = false,
    reach,
    docs,
  } = declaration;
  // the access middleware that authenticates callers runs under /api/v1 alone
  if (isCallerKind(authorization) !== isApiPath(path)) {
    throw new Error(`${method.toUpperCase()} ${path}: only routes under ${API_PREFIX} take a caller`);
  }
  if (idempotent && method !== "post")
    throw new Error(`${method.toUpperCase()} ${path}: only a POST is idempotent by key`);
  if (uncountedForSessions && (method !== "get" || !isCallerKind(authorization)))
    throw new Error(`${method.toUpperCase()} ${path}: only a GET under ${API_PREFIX} goes uncounted for sessions`);
  if (viewerMayWrite && (method === "get" || !isCallerKind(authorization)))
    throw new Error(`${method.toUpperCase()} ${path}: only a write under ${API_PREFIX} is let through for viewers`);
  const declared: Route = {
    method,
    path,
    authorization,
    maxContentLength,
    idempotent,
    uncountedForSessions,
    viewerMayWrite,
    params: params?.schema,
    query: query?.schema,
    body: body
      ? { schema: body.schema, optional: body.optional ?? false, mediaType: body.mediaType ?? "application/json" }
      : undefined,
    docs,
    reach,
    handlers: (around, scope) => {
      const work: RequestHandler = async (req, res) => {
        const caller = callerFor(authorization, viewerMayWrite, res);
        const parsed = {
          params: params ? parseInput(params, req.params, "path parameter") : undefined,
          query: query ? parseInput(query, req.query, "query parameter") : undefined,
          body: body ? parseBody(body, req.body, bodySent(req)) : undefined,
        };
        // a client-scoped key's request outside its client is refused here, once for every route
        const scopedQuery = scope
          ? await scope.check({ method, path, reach }, caller, { ...parsed, form: res.locals.form })
          : parsed.query;
        const input = { caller, ...parsed, query: scopedQuery, req, res } as RouteInput<A, P, Q, B>;
        const answer = async () => sendAnswer(req, res, await handler(input));
        // inputs the route refuses are refused before anything around it runs: a 400 is never remembered
        if (around) await around(declared, req, res, answer);
        else await answer();
      };
      return typeof authorization === "object" ? [guarded(authorization), work] : [work];
    },
  };
  return declared;
};

/**
 * Serves the routes; a path answers 405, with Allow, to the methods no route declares on it.
 * `around` runs inside the work of the routes declared idempotent; `scope` checks every API
 * key's reach before each route's work (access/key-scope.ts).
 */
export const routerOf = (
  routes: readonly Route[],
  { around, scope }: { around?: Around; scope?: KeyScope } = {},
): Router => {
  const router = Router();
  const byPath = new Map<string, Route[]>();
  for (const declared of routes) byPath.set(declared.path, [...(byPath.get(declared.path) ?? []), declared]);
  for (const [path, declared] of byPath) {
    const served = router.route(path);
    for (const one of declared) served[one.method](...one.handlers(one.idempotent ? around : undefined, scope));
    served.all(methodNotAllowed(declared.map(({ method }) => method.toUpperCase())));
  }
  return router;
};
