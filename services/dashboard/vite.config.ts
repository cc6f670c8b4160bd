import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The dashboard is served by the gateway under /app/ (services/gateway/src/ops/dashboard.route.ts).
 * `pnpm --filter @scan/dashboard dev` serves it with hot reload and sends the API's paths to the
 * gateway named by GATEWAY_URL (http://127.0.0.1:3000 by default), so cookies stay on one origin.
 * The proxy keeps the browser's Host header (no changeOrigin): the gateway's same-origin check
 * on the session's POSTs then compares the dev server's origin with itself and lets them through.
 */
const gateway = process.env.GATEWAY_URL ?? "http://127.0.0.1:3000";

export default defineConfig({
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // the gateway's Content-Security-Policy allows scripts from files only: no inline polyfill
    modulePreload: { polyfill: false },
    // every asset a file of its own (no data: URLs to allow in the policy)
    assetsInlineLimit: 0,
    target: "es2022",
    sourcemap: false,
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    proxy: Object.fromEntries(["/api", "/auth", "/openapi.json", "/admin"].map((path) => [path, gateway])),
  },
});
