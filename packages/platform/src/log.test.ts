import { Writable } from "node:stream";
import { createLogger, uncensored } from "./log";

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

  it("censors secret parameters in the URLs a message, a field, a child's bindings or an error quotes", () => {
    const { lines, log } = capture();
    log
      .child({ callback: "https://hooks.example/in?token=SECRET10" })
      .warn(
        { err: new Error("https://site.example/?sig=SECRET11 answered 500"), page: "/p?access=SECRET12" },
        "failed at /q?key=SECRET13",
      );
    const output = lines.join("");
    expect(output).not.toMatch(/SECRET1\d/);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      callback: "https://hooks.example/in?token=[REDACTED]",
      err: { type: "Error", message: "https://site.example/?sig=[REDACTED] answered 500" },
      page: "/p?access=[REDACTED]",
      msg: "failed at /q?key=[REDACTED]",
    });
  });
});
