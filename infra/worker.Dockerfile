# The scan worker, compiled, with Debian's Chromium headless shell. Build from the repository root:
#   docker build -f infra/worker.Dockerfile -t aeo-scan-worker:0.1.0 .

# Build: the whole workspace with its dev tools, `pnpm build` (esbuild bundles into dist/), then
# scripts/assemble-service.ts lays out dist/ and the worker's production dependencies (`pnpm
# deploy --prod`, for the module the bundle leaves out: playwright-core, which finds files of its
# own on disk). tests/production-build.test.ts starts that same layout.
FROM node:20-bookworm-slim AS build
RUN npm install -g pnpm@12
WORKDIR /src
COPY . .
# the dashboard's build too: its print view is what the client reports mailed for schedules are printed from
RUN pnpm install --frozen-lockfile && pnpm --filter @scan/dashboard build && pnpm build \
  && pnpm exec tsx scripts/assemble-service.ts worker /out

# Run: Node, tini, Chromium and the compiled program; no TypeScript, no dev dependencies, no pnpm.
# tini is PID 1 so that Chromium's exited children are reaped instead of piling up as zombies.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates tini chromium-headless-shell fonts-liberation \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /out /app
# found from dist/ at ../../dashboard/dist, as the gateway finds it
COPY --from=build /src/services/dashboard/dist /app/services/dashboard/dist
WORKDIR /app/services/worker
ENV NODE_ENV=production CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell \
  REPORT_CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell METRICS_PORT=9464
# /metrics, /healthz and /readyz
EXPOSE 9464
# not root: Chromium keeps its sandbox
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
