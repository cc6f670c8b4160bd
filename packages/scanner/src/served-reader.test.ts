import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { preparePage, runChecks, servedMainText } from "@scan/checks";
import { corpusPagesDir, snapshotOf } from "@scan/checks/testing";
import { buildSync } from "esbuild";
import { createServedReader, type ServedReader } from "./served-reader";

// the thread runs outside jest's transform, as the worker's bundle runs it: compiled by esbuild
const scratch = mkdtempSync(join(tmpdir(), "served-reader-"));
const compiled = join(scratch, "served-reader.thread.js");
const readers: ServedReader[] = [];
const reader = (file: string, timeoutMs = 20_000) => {
  const created = createServedReader({ timeoutMs, file });
  readers.push(created);
  return created;
};

beforeAll(() => {
  buildSync({
    entryPoints: [join(__dirname, "served-reader.thread.ts")],
    outfile: compiled,
    bundle: true,
    platform: "node",
    format: "cjs",
    logLevel: "silent",
  });
});

afterAll(async () => {
  await Promise.all(readers.map((r) => r.close()));
  rmSync(scratch, { recursive: true, force: true });
});

const corpusPage = (name: string) => readFileSync(join(corpusPagesDir(), name, "index.html"), "utf8");

// a client-rendered article: the served HTML holds its title, the script writes the rest
const SERVED = `<!doctype html><html><head><title>Tides</title></head><body><main><h1>Tides</h1>
<p>The moon pulls the sea.</p><div id="app"></div></main></body></html>`;
const RENDERED = SERVED.replace(
  '<div id="app"></div>',
  `<div id="app">${"<p>Twice a day the water rises along the coast and falls back again, as the moon and the sun pull on the oceans of the turning earth.</p>".repeat(12)}</div>`,
);

describe("the served HTML read on a thread while the page renders", () => {
  test("reads the served main content as the checks read it, page after page", async () => {
    const served = reader(compiled);
    for (const html of [SERVED, corpusPage("guardian-1"), corpusPage("001")]) {
      await expect(served.read(html)).resolves.toBe(servedMainText(html));
    }
  });

  test("a verdict judged on the thread's reading is the verdict the checks reach alone", async () => {
    const snapshot = snapshotOf(RENDERED, { rawHtml: SERVED });
    const at = new Date("2026-06-01T12:00:00Z");
    const servedText = await reader(compiled).read(SERVED);
    expect(servedText).toBeDefined();
    const withThread = runChecks(snapshot, {
      mode: "full",
      scannedAt: at,
      page: preparePage(snapshot, at, { servedText }),
    });
    const alone = runChecks(snapshot, { mode: "full", scannedAt: at });
    expect(withThread).toEqual(alone);
    expect(withThread.find((check) => check.id === "raw-html-content")?.status).toBe("fail");
  });

  test("a thread that cannot start answers nothing, and is not started again", async () => {
    const broken = join(scratch, "broken.js");
    writeFileSync(broken, "throw new Error('no thread here');\n");
    const served = reader(broken);
    await expect(served.read(SERVED)).resolves.toBeUndefined();
    await expect(served.read(SERVED)).resolves.toBeUndefined();
  });

  test("a thread stuck past the budget is replaced and the reading answers nothing", async () => {
    const stuck = join(scratch, "stuck.js");
    // answers the first reading, then never again
    writeFileSync(
      stuck,
      `const { parentPort } = require("node:worker_threads"); let first = true;
       parentPort.on("message", ({ id }) => { if (first) { first = false; parentPort.postMessage({ id, text: "first" }); } else for (;;) {} });`,
    );
    const served = reader(stuck, 3_000);
    await expect(served.read(SERVED)).resolves.toBe("first");
    await expect(served.read(SERVED)).resolves.toBeUndefined();
    // a new thread: it answers its first reading
    await expect(served.read(SERVED)).resolves.toBe("first");
  });
});
