import type { ResponseForm } from "@scan/shared/envelope";
import express, { type Express } from "express";
import type { Logger } from "pino";
import type { ScanService } from "./domain/scan-service";
import { errorHandler, notFound, requestContext } from "./infra/http";
import { scanRoutes } from "./routes/scan.route";

export type AppDeps = {
  scans: ScanService;
  log: Logger;
  defaultForm: ResponseForm;
  bodyLimitBytes: number;
};

export const createApp = ({ scans, log, defaultForm, bodyLimitBytes }: AppDeps): Express => {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(requestContext(defaultForm));
  // liveness for orchestrators and the start script; readiness with dependencies comes with /readyz
  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  // strict: only objects and arrays are JSON bodies; a bare string or number is a client error
  app.use(express.json({ limit: bodyLimitBytes, strict: true, type: ["application/json", "application/*+json"] }));
  app.use(scanRoutes(scans));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
};
