import type { IncomingMessage } from "node:http";
import { clientScheme } from "./https-only";

const request = (forwarded: string | string[] | undefined, encrypted = false) =>
  ({
    socket: { encrypted },
    headers: forwarded === undefined ? {} : { "x-forwarded-proto": forwarded },
  }) as unknown as IncomingMessage;

describe("clientScheme", () => {
  it("with no trusted proxy, is the socket's scheme whatever X-Forwarded-Proto says", () => {
    expect(clientScheme(request("https"), 0)).toBe("http");
    expect(clientScheme(request("http", true), 0)).toBe("https");
    expect(clientScheme(request(undefined), 0)).toBe("http");
  });

  it("with one trusted hop, is the value that proxy wrote: the rightmost", () => {
    expect(clientScheme(request("https"), 1)).toBe("https");
    expect(clientScheme(request("HTTPS "), 1)).toBe("https");
    expect(clientScheme(request("http"), 1)).toBe("http");
    // the client's own claim, to the left of the proxy's, is not believed
    expect(clientScheme(request("https, http"), 1)).toBe("http");
    expect(clientScheme(request("http, https"), 1)).toBe("https");
    expect(clientScheme(request(["https", "http"]), 1)).toBe("http");
  });

  it("with two trusted hops, is the outer proxy's value, two from the right", () => {
    expect(clientScheme(request("https, http"), 2)).toBe("https");
    expect(clientScheme(request("http, https, http"), 2)).toBe("https");
    expect(clientScheme(request("https, http, http"), 2)).toBe("http");
    // a proxy that overwrote the header leaves one value
    expect(clientScheme(request("https"), 2)).toBe("https");
  });

  it("without the header behind a proxy, is the proxy connection's own scheme", () => {
    expect(clientScheme(request(undefined), 1)).toBe("http");
    expect(clientScheme(request(" , "), 1)).toBe("http");
    expect(clientScheme(request(undefined, true), 1)).toBe("https");
  });
});
