import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ORIGIN, PRODUCT_PAGE, pageAt } from "./fixture-pages";
import { generate, generateExtractive } from "./generate";

/**
 * The model path against a real HTTP server on loopback that speaks the chat-completions
 * shape: what is sent (grounded on the page's text, the key only in the header) and what
 * happens when the endpoint fails.
 */

type Seen = { method: string; url: string; authorization: string; body: any };
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const KEY = "sk-test-7f3a9c-secret";
const product = pageAt("/shoes/trail-runner-3", PRODUCT_PAGE);
const DRAFT = "# Trail Runner 3\n\n## Can I machine-wash them?\n\nYes, cold and gentle.";

describe("generate with a model endpoint", () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        seen.push({
          method: req.method ?? "",
          url: req.url ?? "",
          authorization: req.headers.authorization ?? "",
          body: JSON.parse(body),
        });
        handler(req, res, body);
      });
    });
    server.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  const answer =
    (status: number, payload: unknown): Handler =>
    (_req, res) => {
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(typeof payload === "string" ? payload : JSON.stringify(payload));
    };

  it("asks the model, grounded on the page's text, and says so", async () => {
    handler = answer(200, {
      id: "x",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: `${DRAFT}\n` } }],
    });
    const out = await generate(
      product,
      { contentType: "faq", topic: "washing" },
      { baseUrl: base, apiKey: KEY, model: "test-model" },
    );
    expect(out.method).toBe("llm");
    expect(out.llm).toEqual({ model: "test-model", error: null });
    expect(out.markdown).toBe(`${DRAFT}\n`);
    // the extractive items stay beside the draft as its grounding
    if (out.contentType !== "faq") throw new Error("not an FAQ");
    expect(out.items.map((item) => item.question)).toEqual(["Can I wash the shoes in a machine?"]);

    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/v1/chat/completions");
    expect(request?.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body.model).toBe("test-model");
    expect(request?.body.temperature).toBe(0);
    const [system, user] = request?.body.messages ?? [];
    expect(system).toEqual({ role: "system", content: expect.stringMatching(/Use only facts stated in that text/) });
    expect(user.role).toBe("user");
    expect(user.content).toContain(`Page URL: ${ORIGIN}/shoes/trail-runner-3`);
    expect(user.content).toContain("Keep only what the page says about this topic: washing.");
    expect(user.content).toContain("Title: Trail Runner 3 shoes | Northwind Outfitters");
    expect(user.content).toContain("Yes, wash them cold on a gentle cycle with the insoles taken out");
    expect(user.content).toContain("- Rock plate under the forefoot");
    expect(JSON.stringify(request?.body)).not.toContain(KEY);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it("sends at most maxInputChars of page text", async () => {
    handler = answer(200, { choices: [{ message: { content: DRAFT } }] });
    await generate(product, { contentType: "blog" }, { baseUrl: base, apiKey: KEY, model: "m", maxInputChars: 500 });
    const user: string = seen[0]?.body.messages[1].content;
    const text = /<<<PAGE\n([\s\S]*)\nPAGE>>>/.exec(user)?.[1] ?? "";
    expect(text.length).toBeGreaterThan(100);
    expect(text.length).toBeLessThanOrEqual(500);
    expect(user).not.toContain("repair worn soles");
  });

  const extractive = generateExtractive(product, { contentType: "product" });

  it.each<[string, () => Handler, number, RegExp]>([
    [
      "an error status, even with the key echoed in the body",
      () => (req, res) => res.writeHead(500).end(`bad key ${req.headers.authorization}`),
      10_000,
      /^the model endpoint answered HTTP 500$/,
    ],
    ["no answer in time", () => () => undefined, 300, /^the model endpoint did not answer within 300 ms$/],
    ["an answer that is not JSON", () => answer(200, "<html>proxy error</html>"), 10_000, /is not JSON$/],
    ["an answer without choices", () => answer(200, { choices: [] }), 10_000, /holds no message content$/],
    [
      "an empty message",
      () => answer(200, { choices: [{ message: { content: "   " } }] }),
      10_000,
      /holds no message content$/,
    ],
    [
      "an answer too large",
      () => (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("x".repeat(2_000_000)),
      10_000,
      /larger than 1000000 bytes$/,
    ],
  ])("falls back to the extractive content on %s, and says why", async (_name, make, timeoutMs, why) => {
    handler = make();
    const out = await generate(
      product,
      { contentType: "product" },
      { baseUrl: base, apiKey: KEY, model: "m", timeoutMs },
    );
    expect(out.method).toBe("extractive");
    expect(out.llm).toEqual({ model: "m", error: expect.stringMatching(why) });
    expect(out.markdown).toBe(extractive.markdown);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it("falls back when the endpoint cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const out = await generate(
      product,
      { contentType: "blog" },
      { baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, model: "m" },
    );
    expect(out.method).toBe("extractive");
    expect(out.llm?.error).toBe("the model endpoint could not be reached (ECONNREFUSED)");
  });

  it("is the extractive content without an endpoint", async () => {
    const out = await generate(product, { contentType: "faq" }, null);
    expect(out).toEqual(generateExtractive(product, { contentType: "faq" }));
    expect(seen).toEqual([]);
  });
});
