import { GOOGLE_CASES } from "./google-cases";
import {
  escapePattern,
  googleAnswer,
  googlePathOf,
  isValidProductToken,
  parseRobotsTxt,
  readRobotsFile,
  textOf,
} from "./index";

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...new TextEncoder().encode(part)] : part)));

describe("google/robotstxt robots_test.cc, IsUserAgentAllowed", () => {
  it("has all 145 cases of the file", () => {
    expect(GOOGLE_CASES).toHaveLength(145);
  });

  it.each(GOOGLE_CASES.map((c, index) => [index + 1, c.test, c.agent, c.url.slice(0, 80), c] as const))(
    "#%i %s: %j may fetch %j",
    (_index, _test, _agent, _url, c) => {
      expect(googleAnswer(c.robots, c.agent, c.url).allowed).toBe(c.allowed);
    },
  );

  it("agrees on all of them", () => {
    const agreeing = GOOGLE_CASES.filter((c) => googleAnswer(c.robots, c.agent, c.url).allowed === c.allowed);
    expect(agreeing.length).toBe(145);
  });
});

// The parse-only tests of robots_test.cc, asked as allow/deny questions (and, where the test
// counts directives, with the counts it expects).
describe("google/robotstxt robots_test.cc, parse-only tests as questions", () => {
  const directiveLines = (body: string | Uint8Array) =>
    parseRobotsTxt(body)
      .lines.filter((line) => line.directive && line.directive.kind !== "other")
      .map((line) => line.number);

  it.each([
    ["unix", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n"],
    ["dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n"],
    ["mac", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r"],
    ["no final newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /"],
    ["mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /"],
  ])("ID_LinesNumbersAreCountedCorrectly (%s): 4 directives, the last on line 6", (_name, body) => {
    expect(directiveLines(body)).toEqual([1, 2, 3, 6]);
    expect(googleAnswer(body, "foo", "http://foo.bar/x").allowed).toBe(true);
    expect(googleAnswer(body, "bar", "http://foo.bar/x").allowed).toBe(false);
  });

  // The test file's bodies hold "Allow: /AnyValue"; a Disallow makes the reading observable.
  it.each([
    ["full BOM", bytes([0xef, 0xbb, 0xbf], "User-Agent: foo\nDisallow: /AnyValue\n"), 2, false],
    ["partial BOM (2 bytes)", bytes([0xef, 0xbb], "User-Agent: foo\nDisallow: /AnyValue\n"), 2, false],
    ["partial BOM (1 byte)", bytes([0xef], "User-Agent: foo\nDisallow: /AnyValue\n"), 2, false],
    ["broken BOM", bytes([0xef, 0x11, 0xbf], "User-Agent: foo\nDisallow: /AnyValue\n"), 1, true],
    ["BOM mid-file", bytes("User-Agent: foo\n", [0xef, 0xbb, 0xbf], "Disallow: /AnyValue\n"), 1, true],
  ] as const)("ID_UTF8ByteOrderMarkIsSkipped (%s)", (_name, body, directives, allowed) => {
    expect(directiveLines(body)).toHaveLength(directives);
    expect(googleAnswer(body, "foo", "http://foo.bar/AnyValue").allowed).toBe(allowed);
  });

  it("reads a BOM at the start of text as well", () => {
    expect(googleAnswer("\uFEFFUser-Agent: foo\nDisallow: /\n", "foo", "http://foo.bar/").allowed).toBe(false);
  });

  it("ID_NonStandardLineExample_Sitemap: a Sitemap line anywhere in the file", () => {
    const groups = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n";
    for (const body of [
      `${groups}Sitemap: http://foo.bar/sitemap.xml\n`,
      `Sitemap: http://foo.bar/sitemap.xml\n${groups}`,
    ]) {
      expect(readRobotsFile(body, "http://foo.bar/robots.txt").sitemaps).toEqual(["http://foo.bar/sitemap.xml"]);
    }
  });

  it.each([
    ["", "/"],
    ["http://www.example.com", "/"],
    ["http://www.example.com/", "/"],
    ["http://www.example.com/a", "/a"],
    ["http://www.example.com/a/", "/a/"],
    ["http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"],
    ["http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["example.com", "/"],
    ["example.com/", "/"],
    ["example.com/a", "/a"],
    ["example.com/a/", "/a/"],
    ["example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"],
    ["a", "/"],
    ["a/", "/"],
    ["/a", "/a"],
    ["a/b", "/b"],
    ["example.com?a", "/?a"],
    ["example.com/a;b#c", "/a;b"],
    ["//a/b/c", "/b/c"],
  ])("TestGetPathParamsQuery: %j has the path %j", (url, path) => {
    expect(googlePathOf(url)).toBe(path);
    // as a question: only that exact path is allowed
    const body = `user-agent: FooBot\ndisallow: /\nallow: ${path}$\n`;
    expect(googleAnswer(body, "FooBot", url).allowed).toBe(true);
    expect(googleAnswer(body, "FooBot", `http://x.test${path}x`).allowed).toBe(false);
  });

  it.each([
    ["http://www.example.com", "http://www.example.com"],
    ["/a/b/c", "/a/b/c"],
    ["á", "%C3%A1"],
    ["%aa", "%AA"],
  ])("TestMaybeEscapePattern: %j becomes %j", (pattern, escaped) => {
    const utf8 = String.fromCharCode(...new TextEncoder().encode(pattern));
    expect(escapePattern(utf8)).toBe(escaped);
    if (escaped.startsWith("/") || escaped.startsWith("%")) {
      const path = escaped.startsWith("/") ? escaped : `/${escaped}`;
      const rule = escaped.startsWith("/") ? pattern : `/${pattern}`;
      expect(googleAnswer(`user-agent: FooBot\ndisallow: ${rule}$\n`, "FooBot", `http://x.test${path}`).allowed).toBe(
        false,
      );
    }
  });

  it.each([
    ["Foobot", true],
    ["Foobot-Bar", true],
    ["Foo_Bar", true],
    ["", false],
    ["ツ", false],
    ["Foobot*", false],
    [" Foobot ", false],
    ["Foobot/2.1", false],
    ["Foobot Bar", false],
  ])("ID_VerifyValidUserAgentsToObey: %j is a valid product token: %s", (agent, valid) => {
    expect(isValidProductToken(agent)).toBe(valid);
    // a crawler asking with an invalid name never finds its group
    if (agent !== "")
      expect(googleAnswer(`User-agent: ${agent}\nDisallow: /\n`, agent, "http://x.test/").allowed).toBe(!valid);
  });

  it("keeps a line's text readable for reports", () => {
    const [line] = parseRobotsTxt("Disallow: /café\n").lines;
    expect(textOf(line?.raw ?? "")).toBe("Disallow: /café");
    expect(line?.directive?.pattern).toBe("/caf%C3%A9");
  });
});
