import { randomBytes } from "node:crypto";
import type { Snapshot } from "./snapshot";
import { packSnapshot, unpackSnapshot } from "./snapshot-archive";

const snapshot = (overrides: Partial<Snapshot> = {}): Snapshot => ({
  requestedUrl: "https://example.com/",
  finalUrl: "https://example.com/",
  status: 200,
  redirects: [],
  redirectLoop: false,
  headers: { "content-type": "text/html" },
  ttfbMs: 12,
  rawHtml: "<!doctype html><title>Example</title><h1>Example</h1>",
  renderedHtml: "<html><head><title>Example</title></head><body><h1>Example</h1></body></html>",
  rendered: false,
  renderReason: "server-rendered",
  robotsTxt: {
    url: "https://example.com/robots.txt",
    status: 200,
    contentType: "text/plain",
    body: "User-agent: *\nAllow: /\n",
    truncated: false,
    error: null,
  },
  llmsTxt: null,
  sitemap: null,
  subresources: [{ url: "https://example.com/app.js", resourceType: "script", blocked: false }],
  botFetches: [{ bot: "GPTBot", userAgent: "GPTBot/1.0", status: 200, body: "<html></html>", error: null }],
  ...overrides,
});

// random bytes do not compress: a body of this many characters stays about this size gzipped
const incompressible = (chars: number) => randomBytes(chars).toString("base64").slice(0, chars);

describe("packSnapshot / unpackSnapshot", () => {
  it("round-trips a snapshot through gzip, smaller than its JSON", async () => {
    const page = snapshot({ rawHtml: "<p>same words again</p>".repeat(2_000) });
    const packed = await packSnapshot(page, 1024 * 1024);
    expect(packed).not.toBeNull();
    expect(packed?.trimmed).toBe(false);
    expect(packed?.size).toBe(Buffer.byteLength(JSON.stringify(page)));
    expect(packed?.data.byteLength).toBeLessThan((packed?.size ?? 0) / 10);
    await expect(unpackSnapshot(packed?.data ?? Buffer.alloc(0))).resolves.toEqual(page);
  });

  it("drops the crawler bodies and subresources, and only those, when the whole does not fit", async () => {
    const page = snapshot({
      botFetches: [{ bot: "GPTBot", userAgent: "GPTBot/1.0", status: 200, body: incompressible(40_000), error: null }],
    });
    const packed = await packSnapshot(page, 20_000);
    expect(packed?.trimmed).toBe(true);
    const back = await unpackSnapshot(packed?.data ?? Buffer.alloc(0));
    expect(back).toEqual({ ...page, botFetches: [{ ...page.botFetches[0], body: null }], subresources: [] });
  });

  it("answers null when even the trimmed snapshot is over the cap", async () => {
    await expect(packSnapshot(snapshot({ renderedHtml: incompressible(40_000) }), 20_000)).resolves.toBeNull();
  });

  it("refuses stored data that is not a snapshot", async () => {
    const { gzipSync } = await import("node:zlib");
    await expect(unpackSnapshot(gzipSync(JSON.stringify({ not: "a snapshot" })))).rejects.toThrow();
    await expect(unpackSnapshot(Buffer.from("not gzip"))).rejects.toThrow();
  });
});
