import type { Scanner } from "@scan/scanner";
import { type FixtureServer, html, startFixtureServer } from "./support/fixture-server";
import { loopbackScanner } from "./support/loopback-scanner";

/**
 * A quick scan's render reason (the worker logs it with `scan completed`) says what happened under
 * each QUICK_RENDER setting (docs/checks.md, When a quick scan renders): a client-rendered page
 * is rendered for its empty mount point, for QUICK_RENDER=always, or not at all under
 * QUICK_RENDER=never, which the reason says.
 */

// an empty mount point its script fills: the served HTML alone asks for a render
const APP_SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shell</title></head>
<body><div id="root"></div><script>
document.getElementById("root").innerHTML = "<main><h1>Built by script</h1></main>";
</script></body></html>`;

describe("a quick scan's render reason", () => {
  let site: FixtureServer;
  const scanners: Scanner[] = [];

  beforeAll(async () => {
    site = await startFixtureServer({ "/app": html(APP_SHELL) });
  });

  afterAll(async () => {
    await Promise.all(scanners.map((scanner) => scanner.close()));
    await site?.close();
  });

  const quickScan = async (quickRender: "auto" | "always" | "never") => {
    const scanner = loopbackScanner(site.origin, 20_000, quickRender);
    scanners.push(scanner);
    const scanned = await scanner.scan({ url: site.url("/app"), mode: "quick" });
    return { renderReason: scanned.renderReason, rendered: scanned.outcome.rendered };
  };

  it.each([
    ["auto", { renderReason: "an empty app mount point (client-rendered)", rendered: true }],
    ["always", { renderReason: "quick scans always render (QUICK_RENDER=always)", rendered: true }],
    [
      "never",
      {
        renderReason:
          "an empty app mount point (client-rendered), not rendered: quick scans never render (QUICK_RENDER=never)",
        rendered: false,
      },
    ],
  ] as const)(
    "QUICK_RENDER=%s",
    async (quickRender, expected) => {
      expect(await quickScan(quickRender)).toEqual(expected);
    },
    60_000,
  );
});
