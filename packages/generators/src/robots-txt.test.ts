import {
  AI_SEARCH_AGENTS,
  AI_TRAINING_AGENTS,
  aiSearchAccess,
  preparePage,
  robotsRules,
  robotsTxt,
} from "@scan/checks";
import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import type { TextResource } from "@scan/contract";
import { ORIGIN, pageAt, site } from "./fixture-pages";
import { pageFacts } from "./page-facts";
import { generateRobotsTxt } from "./robots-txt";

const HTML = "<html><body><p>x</p></body></html>";
const PATH = "/blog/post";

const generate = (robots: TextResource | null, sitemap: TextResource | null = null) => {
  const snapshot = pageAt(PATH, HTML, { robotsTxt: robots, sitemap });
  return generateRobotsTxt(pageFacts(preparePage(snapshot, FIXED_SCAN_TIME)), snapshot);
};

const pageWith = (robots: TextResource | null) =>
  preparePage(pageAt(PATH, HTML, { robotsTxt: robots }), FIXED_SCAN_TIME);

const OTHER_AGENTS = ["Googlebot", "Bingbot", "SomeBot", ...AI_TRAINING_AGENTS];
const PATHS = ["/", PATH, "/admin/x", "/private", "/search?q=1", "/tmp/a.pdf"];

/** Which of these agents may fetch which of these paths under a robots.txt. */
const matrix = (robots: TextResource | null, agents: readonly string[]) => {
  const rules = robotsRules(pageWith(robots));
  return agents.flatMap((agent) => PATHS.map((path) => `${agent} ${path} ${rules.allows(agent, `${ORIGIN}${path}`)}`));
};

const expectFixes = (original: TextResource | null, content: string) => {
  const served = site("/robots.txt", content, 200);
  const page = pageWith(served);
  expect(robotsTxt.run(page).status).toBe("pass");
  expect(aiSearchAccess.run(page).status).toBe("pass");
  // with a readable file, every crawler but the AI search agents is governed exactly as before
  if (original && original.status >= 200 && original.status < 300) {
    expect(matrix(served, OTHER_AGENTS)).toEqual(matrix(original, OTHER_AGENTS));
  }
};

describe("generateRobotsTxt", () => {
  it("writes a new file when the site has none", () => {
    const original = site("/robots.txt", "nope", 404);
    const out = generate(original);
    expect(out.content).toBe(`User-agent: *
Allow: /

# AI search and answer engines may fetch the site, so that their answers can cite it.
${AI_SEARCH_AGENTS.map((agent) => `User-agent: ${agent}`).join("\n")}
Allow: /
`);
    expectFixes(original, out.content);
    expect(out.notes[0]).toMatch(/robots\.txt answered 404, so crawlers may fetch everything; this is a new file/);
  });

  it.each([
    ["answers 503", site("/robots.txt", "down", 503)],
    ["was not fetched", null],
    ["could not be fetched", { ...site("/robots.txt", null, 0), error: "ECONNRESET" }],
  ])("writes a new file and says so when robots.txt %s", (_name, original) => {
    const out = generate(original);
    expectFixes(original, out.content);
    expect(out.notes[0]).toMatch(/its rules are unknown; this is a new file/);
  });

  it("opens a site closed to everyone to the AI search agents only, keeping its other rules for them", () => {
    const original = site("/robots.txt", "User-agent: *\nDisallow: /\nDisallow: /admin/\n");
    const out = generate(original);
    expect(out.content).toBe(`User-agent: *
Disallow: /
Disallow: /admin/

# AI search and answer engines may fetch the site, so that their answers can cite it.
${AI_SEARCH_AGENTS.map((agent) => `User-agent: ${agent}`).join("\n")}
Allow: /
Disallow: /admin/
`);
    expectFixes(original, out.content);
    const rules = robotsRules(pageWith(site("/robots.txt", out.content)));
    expect(rules.allows("PerplexityBot", `${ORIGIN}/admin/x`)).toBe(false);
  });

  it("takes a blocked agent out of its own group and keeps the group for the others", () => {
    const body = [
      "# training stays out",
      "User-agent: GPTBot",
      "User-agent: OAI-SearchBot",
      "Disallow: /",
      "",
      "User-agent: PerplexityBot",
      "Disallow: /blog/",
      "Disallow: /private",
      "",
      "User-agent: Claude-SearchBot",
      "Disallow: /private",
      "",
      "User-agent: *",
      "Disallow: /tmp/",
      "Sitemap: https://shop.example.com/sitemap.xml",
    ].join("\n");
    const original = site("/robots.txt", body);
    const out = generate(original);
    expect(out.content).toBe(`# training stays out
User-agent: GPTBot
# User-agent: OAI-SearchBot (moved to the AI search group below)
Disallow: /

# User-agent: PerplexityBot (moved to the AI search group below)
# Disallow: /blog/ (moved to the AI search group below)
# Disallow: /private (moved to the AI search group below)

User-agent: Claude-SearchBot
Disallow: /private

User-agent: *
Disallow: /tmp/
Sitemap: https://shop.example.com/sitemap.xml

# AI search and answer engines may fetch the site, so that their answers can cite it.
User-agent: OAI-SearchBot
Allow: /

User-agent: ChatGPT-User
User-agent: Claude-User
User-agent: Perplexity-User
Allow: /
Disallow: /tmp/

User-agent: PerplexityBot
Allow: /
Disallow: /private
`);
    expectFixes(original, out.content);
  });

  it("keeps lines that do not parse as comments, and writes the ones Google obeys as Google reads them", () => {
    const original = site(
      "/robots.txt",
      "Disallow: /early\nUser-agent: *\nDisalow: /x\nNoise line\nDisallow /tmp/\n\nUser-agent: Googlebot/2.1, Bingbot\nDisallow: /g/\n",
    );
    const out = generate(original);
    expect(out.content.split("\n").slice(0, 8)).toEqual([
      "# Disallow: /early (not a valid robots.txt line: a rule before any User-agent line)",
      "User-agent: *",
      "Disallow: /x",
      "# Noise line (not a valid robots.txt line: no colon: the line is not a directive)",
      "Disallow: /tmp/",
      "",
      "User-agent: Googlebot",
      "Disallow: /g/",
    ]);
    expect(out.notes).toContain(
      'Line 3 "Disalow: /x" is now "Disallow: /x", which every crawler reads as Google read the old line.',
    );
    expect(out.notes).toContain(
      'Line 7 "User-agent: Googlebot/2.1, Bingbot" is now "User-agent: Googlebot", which every crawler reads as Google read the old line; name any other crawler it meant on a User-agent line of its own.',
    );
    expectFixes(original, out.content);
  });

  it("keeps a line Google reads otherwise than other parsers when no plain line says the same, and says so", () => {
    const original = site("/robots.txt", "User-agent: *\nDisallow: *.gif\n");
    const out = generate(original);
    expect(out.content.startsWith("User-agent: *\nDisallow: *.gif\n")).toBe(true);
    expect(out.notes).toContain(
      'Line 2 "Disallow: *.gif" is kept as it is; Google reads the pattern "*.gif", which also ends the run of User-agent lines above it, a strict RFC 9309 parser not a path (it does not start with "/"), so the line is skipped.',
    );
  });

  it("names the sitemap the scan found, and none it did not", () => {
    const sitemap = site(
      "/sitemap.xml",
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    );
    expect(generate(site("/robots.txt", "", 404), sitemap).content).toMatch(
      /\n\nSitemap: https:\/\/shop\.example\.com\/sitemap\.xml\n$/,
    );
    const soft404 = site("/sitemap.xml", "<html>Not here</html>", 200, "text/html");
    const out = generate(site("/robots.txt", "", 404), soft404);
    expect(out.content).not.toContain("Sitemap:");
    expect(out.notes).toContain("No sitemap was found; add a Sitemap: line when the site publishes one.");
  });

  it("leaves an AI agent alone when its own group already lets it in", () => {
    const body = "User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\nAllow: /\n";
    const out = generate(site("/robots.txt", body));
    expect(out.content.startsWith(body.trimEnd())).toBe(true);
    expect(out.content).not.toMatch(/User-agent: OAI-SearchBot[\s\S]*User-agent: OAI-SearchBot/);
    expectFixes(site("/robots.txt", body), out.content);
  });
});
