/**
 * The yardstick for the gateway's JSON endpoints: express with its JSON body parser and one
 * route that answers JSON, nothing else. Runs in a process of its own, as the gateway does,
 * and prints {"url": ...} once listening.
 */
import type { AddressInfo } from "node:net";
import express from "express";

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.use(express.json({ limit: 102_400 }));
app.post("/evaluate", (req, res) => {
  res.json({ ok: true, data: { received: typeof req.body === "object" && req.body !== null } });
});
const server = app.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
