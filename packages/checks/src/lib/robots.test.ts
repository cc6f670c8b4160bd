import type { TextResource } from "@scan/contract";
import { siteFile } from "../fixture";
import { robotsStatusOf } from "./robots";

const answering = (status: number, extra: Partial<TextResource> = {}): TextResource => ({
  ...siteFile("/robots.txt", "User-agent: *\nDisallow: /\n", status),
  ...extra,
});

describe("robotsStatusOf: RFC 9309 section 2.3.1", () => {
  it.each([
    [answering(200), "parsed", "answered 200"],
    [answering(204), "parsed", "answered 204"],
    [answering(404), "unavailable", "answered 404"],
    [answering(410), "unavailable", "answered 410"],
    [answering(403), "unavailable", "answered 403"],
    [answering(301, { tooManyRedirects: true }), "unavailable", "redirected more than five times"],
    [answering(302), "unavailable", "answered 302 without a usable redirect"],
    [answering(429), "unreachable", "answered 429"],
    [answering(500), "unreachable", "answered 500"],
    [answering(503), "unreachable", "answered 503"],
    [
      answering(0, { body: null, error: "connection refused" }),
      "unreachable",
      "could not be fetched (connection refused)",
    ],
    [null, "unreachable", "was not fetched"],
  ] as const)("%#: %s", (resource, state, why) => {
    expect(robotsStatusOf(resource)).toEqual({ state, status: resource?.status ?? 0, why });
  });
});
