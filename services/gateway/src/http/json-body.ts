import express, { type RequestHandler } from "express";
import type { Route } from "./route";
import { pathTable } from "./route-paths";

/**
 * Reads JSON bodies, up to the server's limit or, for a route that declares its own
 * maxContentLength, up to that. Every request that gets this far is read, declared route or not.
 * A route whose body is CSV text (`text/csv`) has it read as a string, up to the same limit; a
 * CSV body sent anywhere else is left unread, and the route's 400 says it is not JSON.
 */
export const jsonBodies = ({
  routes,
  limitBytes,
}: {
  routes: readonly Route[];
  limitBytes: number;
}): RequestHandler => {
  // strict: only objects and arrays are JSON bodies; a bare string or number is a client error
  const parser = (limit: number) =>
    express.json({ limit, strict: true, type: ["application/json", "application/*+json"] });
  const json = parser(limitBytes);
  const csvRoutes = pathTable(
    routes.filter((route) => route.body?.mediaType === "text/csv").map((route) => ({ path: route.path, value: route })),
  );
  const csv = express.text({ limit: limitBytes, type: "text/csv", defaultCharset: "utf-8" });
  const standard: RequestHandler = (req, res, next) => {
    const method = req.method.toLowerCase();
    if (csvRoutes.at(req.path).some((route) => route.method === method)) csv(req, res, next);
    else json(req, res, next);
  };
  const limits = new Map<Route, number>();
  for (const route of routes) {
    if (route.maxContentLength !== undefined && route.maxContentLength !== limitBytes) {
      limits.set(route, route.maxContentLength);
    }
  }
  if (limits.size === 0) return standard;
  const parsers = new Map([...new Set(limits.values())].map((limit) => [limit, parser(limit)]));
  const table = pathTable([...limits.keys()].map((route) => ({ path: route.path, value: route })));
  return (req, res, next) => {
    const method = req.method.toLowerCase();
    const declared = table.at(req.path).find((route) => route.method === method);
    const read = declared ? parsers.get(limits.get(declared) ?? limitBytes) : undefined;
    (read ?? standard)(req, res, next);
  };
};
