# The API gateway, compiled. Build from the repository root:
#   docker build -f infra/gateway.Dockerfile -t aeo-scan-gateway:0.1.0 .
# The same image runs the migrations (node dist/migrate.js), the accounts CLI (dist/accounts.js)
# and the demo seed (dist/seed.js).

# Build: the whole workspace with its dev tools, `pnpm build` (esbuild bundles into dist/), then
# scripts/assemble-service.ts lays out dist/, the migrations and the gateway's production
# dependencies (`pnpm deploy --prod`, for the few modules the bundle leaves out: scripts/build.ts
# says which and why). tests/production-build.test.ts starts that same layout.
FROM node:20-bookworm-slim AS build
RUN npm install -g pnpm@12
WORKDIR /src
COPY . .
# the dashboard the gateway serves under /app/ (services/dashboard/dist) is built here too
RUN pnpm install --frozen-lockfile && pnpm --filter @scan/dashboard build && pnpm build \
  && pnpm exec tsx scripts/assemble-service.ts gateway /out

# Run: Node, tini and the compiled program; no TypeScript, no dev dependencies, no pnpm.
# The repository's layout is kept (/app/services/gateway, /app/prisma/migrations): the
# migrations are found from dist/ by walking up, the dashboard's build at ../../dashboard/dist.
# Chromium prints the client reports (PDFs) from the dashboard's print view; its fonts with it
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates tini chromium-headless-shell fonts-liberation \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /out /app
COPY --from=build /src/services/dashboard/dist /app/services/dashboard/dist
WORKDIR /app/services/gateway
ENV NODE_ENV=production PORT=3000 REPORT_CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell
EXPOSE 3000
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
