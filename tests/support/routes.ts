import type { Server } from "node:http";

export type RouteInfo = { method: string; path: string };

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

/**
 * Every route the gateway's express app serves (method and path pattern), read from its
 * router: the fuzz test and the OpenAPI coverage test both walk what is really mounted, so
 * a new route cannot be missed. Routers are mounted at the root and carry whole paths.
 */
export const gatewayRoutes = (server: Server): RouteInfo[] => {
  const app = server.listeners("request")[0] as unknown as { router: { stack: Layer[] } };
  const found = new Map<string, RouteInfo>();
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (!on || method === "_all") continue;
            const route = { method: method.toUpperCase(), path };
            found.set(`${route.method} ${path}`, route);
          }
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk(app.router.stack);
  return [...found.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
};
