# The API gateway. Build from the repository root: docker build -f infra/gateway.Dockerfile .
FROM node:20-bookworm-slim
RUN npm install -g pnpm@12 && apt-get update && apt-get install -y --no-install-recommends ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile
# the dashboard the gateway serves under /app/
RUN pnpm --filter @scan/dashboard build
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "node_modules/tsx/dist/cli.mjs", "services/gateway/src/main.ts"]
