import { existsSync } from "node:fs";
import { join } from "node:path";
import express, { type RequestHandler, Router } from "express";

export const DASHBOARD_PATH = "/app";

/**
 * The dashboard's pages run scripts and styles from this origin's files only: no inline script
 * or style, no eval, nothing from another origin; they call only this origin (the API and
 * /auth), cannot be framed, and post no form anywhere.
 */
export const DASHBOARD_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");

const secure: RequestHandler = (_req, res, next) => {
  res.locals.route = DASHBOARD_PATH;
  res.setHeader("Content-Security-Policy", DASHBOARD_POLICY);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  next();
};

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>Build it with <code>pnpm --filter @scan/dashboard build</code> (<code>pnpm start</code> does it for you), then reload.</p>
</body></html>
`;

/**
 * The dashboard (services/dashboard) under /app/: its built files from `dir`, and index.html for
 * any other path below /app/, where the dashboard's own router draws the page. Hashed assets
 * are cached for a year; index.html is asked for again each time, so a new build is seen at
 * once. Without a build, /app/ says how to make one (503).
 */
export const dashboardRoutes = ({ dir }: { dir: string }): Router => {
  const router = Router();
  const index = join(dir, "index.html");
  router.use(DASHBOARD_PATH, secure);
  router.get(DASHBOARD_PATH, (req, res, next) => {
    // /app and /app/ are one page; relative asset paths need the slash
    if (req.originalUrl === DASHBOARD_PATH || req.originalUrl.startsWith(`${DASHBOARD_PATH}?`)) {
      res.redirect(301, `${DASHBOARD_PATH}/${req.originalUrl.slice(DASHBOARD_PATH.length)}`);
      return;
    }
    next();
  });
  router.use(
    DASHBOARD_PATH,
    express.static(dir, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        res.setHeader(
          "Cache-Control",
          path.includes(`${join(dir, "assets")}`) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    }),
  );
  router.get(`${DASHBOARD_PATH}/{*page}`, (req, res, next) => {
    // a missing asset is a 404, not the page: a browser would run index.html as a script
    if (req.path.startsWith(`${DASHBOARD_PATH}/assets/`)) return next();
    res.setHeader("Cache-Control", "no-cache");
    if (!existsSync(index)) {
      res.status(503).type("html").send(NOT_BUILT);
      return;
    }
    res.sendFile(index, (error) => {
      if (error && !res.headersSent) next(error);
    });
  });
  return router;
};
