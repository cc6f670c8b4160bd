import { Writable } from "node:stream";
import { createLogger, redactUrl, uncensored } from "./log";

const capture = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, log: createLogger({ service: "test", level: "info" }, stream) };
};

describe("log redaction", () => {
  it("censors credentials wherever a request's headers or query end up in a line", () => {
    const { lines, log } = capture();
    log.info(
      {
        req: {
          headers: { authorization: "Bearer sk_live_SECRET1", "x-api-key": "sk_live_SECRET2", cookie: "sid=SECRET3" },
          query: { key: "sk_live_SECRET4" },
        },
        headers: { authorization: "Basic SECRET5" },
        apiKey: "sk_live_SECRET6",
      },
      "request",
    );
    log.info({ authorization: "Bearer SECRET7", res: { headers: { "set-cookie": "sid=SECRET8" } } }, "response");
    const output = lines.join("");
    expect(output).not.toMatch(/SECRET\d/);
    expect(output).toContain("[REDACTED]");
    const first = JSON.parse(lines[0] as string);
    expect(first.service).toBe("test");
    expect(first.req.headers.authorization).toBe("[REDACTED]");
  });

  it("writes a vetted line without the censoring pass to the same stream, with the same bindings", () => {
    const { lines, log } = capture();
    const plain = uncensored(log);
    plain.info({ requestId: "abc", url: "/api/v1/scan?key=[REDACTED]", status: 200 }, "request");
    plain.debug({ route: "/healthz" }, "below the level");
    log.info({ token: "SECRET9" }, "still censored");
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toMatchObject({ service: "test", msg: "request", requestId: "abc", status: 200, level: 30 });
    expect(typeof first.time).toBe("string");
    expect(second.token).toBe("[REDACTED]");
  });

  it("leaves other fields alone", () => {
    const { lines, log } = capture();
    log.info({ requestId: "abc", route: "/api/v1/scan/:id", status: 200 }, "request");
    expect(JSON.parse(lines[0] as string)).toMatchObject({ requestId: "abc", route: "/api/v1/scan/:id", status: 200 });
  });
});

describe("redactUrl", () => {
  it("censors credential query parameters in paths and absolute URLs", () => {
    expect(redactUrl("/mcp/sse?key=sk_live_abc&x=1")).toBe("/mcp/sse?key=[REDACTED]&x=1");
    expect(redactUrl("/api/v1/scan?API_KEY=abc")).toBe("/api/v1/scan?API_KEY=[REDACTED]");
    expect(redactUrl("https://hooks.example.com/in?token=t0k3n&site=1")).toBe(
      "https://hooks.example.com/in?token=[REDACTED]&site=1",
    );
    expect(redactUrl("https://user:pw@hooks.example.com/in")).toBe("https://[REDACTED]@hooks.example.com/in");
  });

  it("keeps a path without secrets as it is", () => {
    expect(redactUrl("/api/v1/scan/5b1f")).toBe("/api/v1/scan/5b1f");
    expect(redactUrl("/healthz")).toBe("/healthz");
  });
});
