import { googleAnswer, MAX_LINE_BYTES, MAX_ROBOTS_BYTES, parseRobotsTxt, pathOfUrl, readRobotsFile } from "./index";

const file = (body: string) => readRobotsFile(body, "https://example.com/robots.txt");
const allowed = (body: string, agent: string, url: string) =>
  file(body).matcher.answer(agent, pathOfUrl(new URL(url))).allowed;

describe("the robots.txt reader", () => {
  it("reads the first 500 KiB and ignores what follows, as Google's crawler does", () => {
    const filler = `# ${"x".repeat(1000)}\n`.repeat(Math.ceil(MAX_ROBOTS_BYTES / 1003));
    const body = `User-agent: *\nDisallow: /early/\n${filler}Disallow: /late/\n`;
    const parsed = parseRobotsTxt(body);
    expect(parsed.truncated).toBe(true);
    expect(allowed(body, "FooBot", "https://example.com/early/x")).toBe(false);
    expect(allowed(body, "FooBot", "https://example.com/late/x")).toBe(true);
  });

  it("cuts a line after 16,663 bytes and says so", () => {
    const long = `Disallow: /${"a".repeat(MAX_LINE_BYTES)}`;
    const robots = file(`User-agent: *\n${long}\n`);
    expect(robots.parsed.lines[1]?.raw.length).toBe(MAX_LINE_BYTES);
    expect(robots.readings).toEqual([expect.objectContaining({ line: 2, kind: "differs", strict: "the whole line" })]);
  });

  it("resolves Sitemap lines against robots.txt, Google's key variants included, and drops what is not a URL", () => {
    const robots = file(
      "Sitemap: https://cdn.example.com/a.xml\nsite-map: /b.xml\nSitemaps: c.xml\nSitemap: http://[bad\nSitemap: /b.xml\n",
    );
    expect(robots.sitemaps).toEqual([
      "https://cdn.example.com/a.xml",
      "https://example.com/b.xml",
      "https://example.com/c.xml",
    ]);
  });

  it("matches the URL as a crawler requests it: non-ASCII %-encoded, %xx upper-cased", () => {
    const body = "User-agent: *\nDisallow: /café\nDisallow: /a%2fb\n";
    expect(allowed(body, "FooBot", "https://example.com/café/menu")).toBe(false);
    expect(allowed(body, "FooBot", "https://example.com/caf%C3%A9/menu")).toBe(false);
    expect(allowed(body, "FooBot", "https://example.com/a%2Fb")).toBe(false);
    expect(allowed(body, "FooBot", "https://example.com/a/b")).toBe(true);
  });

  it("says which rule decided, and whether the agent had a group of its own", () => {
    const robots = file("User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /blog/\nDisallow: /blog/drafts/\n");
    expect(robots.matcher.answer("GPTBot", "/blog/drafts/1")).toEqual({
      allowed: false,
      rule: { line: 6, allow: false, pattern: "/blog/drafts/" },
      ownGroup: true,
    });
    expect(robots.matcher.answer("GPTBot", "/shop")).toEqual({ allowed: true, rule: null, ownGroup: true });
    expect(robots.matcher.answer("CCBot", "/shop").rule?.line).toBe(2);
  });

  it("answers the brief's examples as Google does", () => {
    const url = "http://example.com/private/x";
    expect(
      googleAnswer("User-agent: GPTBot\nCrawl-delay: 10\nUser-agent: *\nDisallow: /private/\n", "GPTBot", url).allowed,
    ).toBe(false);
    expect(
      googleAnswer("User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\n", "OAI-SearchBot", url).allowed,
    ).toBe(true);
    expect(googleAnswer("User-agent: OAI-SearchBot, PerplexityBot\nDisallow: /\n", "OAI-SearchBot", url).allowed).toBe(
      false,
    );
    expect(googleAnswer("User-agent: OAI-SearchBot, PerplexityBot\nDisallow: /\n", "PerplexityBot", url).allowed).toBe(
      true,
    );
    expect(googleAnswer("User-agent: *\nDisalow: /\n", "FooBot", url).allowed).toBe(false);
    expect(googleAnswer("User-agent: *\nDisallow /\n", "FooBot", url).allowed).toBe(false);
  });
});

describe("readings: where Google and a strict RFC 9309 parser differ", () => {
  const readings = (body: string) => file(body).readings.map(({ line, kind }) => `${line} ${kind}`);

  it("flags every leniency of Google's, and nothing in a plain file", () => {
    expect(readings("User-agent: *\nDisallow: /private/\nAllow: /*.css$\nCrawl-delay: 3\nSitemap: /s.xml\n")).toEqual(
      [],
    );
    expect(
      readings(
        [
          "Disallow: /early", // 1 no-effect
          "User-agent: A, B", // 2
          "Useragent: C", // 3
          "User-agent: Googlebot/2.1", // 4
          "User-agent: * extra", // 5
          "User-agent:", // 6
          "Disalow: /x", // 7
          "Disallow /y", // 8
          "Allowed: /z", // 9
          "Disallow: *.gif", // 10
          "Disallow: /a b", // 11
          "Disallow: /%7Euser", // 12
          "Allow: /d/index.html", // 13
          "Disallow: /café", // 14 encoding
          "Site-map: /s.xml", // 15
          "Disallow: /%2A", // 16
        ].join("\n"),
      ),
    ).toEqual([
      "1 no-effect",
      "2 differs",
      "3 differs",
      "4 differs",
      "5 differs",
      "6 differs",
      "7 differs",
      "8 differs",
      "9 differs",
      "10 differs",
      "11 differs",
      "12 differs",
      "13 differs",
      "14 encoding",
      "15 differs",
      "16 differs",
    ]);
  });
});
