# The scan worker, with Debian's Chromium headless shell. Build from the repository root:
#   docker build -f infra/worker.Dockerfile .
# tini is PID 1 so that Chromium's exited children are reaped instead of piling up as zombies.
FROM node:20-bookworm-slim
RUN npm install -g pnpm@12 && apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates tini chromium-headless-shell fonts-liberation \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile
ENV NODE_ENV=production CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell METRICS_PORT=9464
# /metrics, /healthz and /readyz
EXPOSE 9464
# not root: Chromium keeps its sandbox
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "node_modules/tsx/dist/cli.mjs", "services/worker/src/main.ts"]
