import type { Citation, EngineAnswer } from "./engine";
import { resolveCitationRedirects } from "./redirects";

const LINK = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/";

const citation = (rawUrl: string, position: number, domain: string, spans: Citation["spans"]): Citation => ({
  url: rawUrl,
  rawUrl,
  domain,
  position,
  spans,
  ...(spans[0] ? { start: spans[0].start, end: spans[0].end } : {}),
});

const answer = (citations: Citation[]): EngineAnswer => ({
  engine: "gemini",
  model: "gemini-test",
  text: "Acme is cheap. Globex is big.",
  citations,
  searchQueries: [],
  usage: { inputTokens: 1, outputTokens: 1, searchCalls: 1 },
  costUsd: 0,
});

describe("citations behind redirect links", () => {
  it("replaces each link by the page it leads to (normalised), keeps the link as sent, and follows each link once", async () => {
    const followed: string[] = [];
    const pages: Record<string, string> = {
      [`${LINK}a`]: "https://www.acme.com/pricing?utm_source=x",
      [`${LINK}b`]: "https://globex.io/",
    };
    const resolved = await resolveCitationRedirects(
      answer([
        citation(`${LINK}a`, 1, "acme.com", [{ start: 0, end: 14 }]),
        citation(`${LINK}b`, 2, "globex.io", [{ start: 15, end: 29 }]),
        citation("https://wikipedia.org/wiki/Acme", 3, "wikipedia.org", []),
      ]),
      ["vertexaisearch.cloud.google.com"],
      async (url) => {
        followed.push(url);
        return pages[url] ?? null;
      },
    );
    expect(followed.sort()).toEqual([`${LINK}a`, `${LINK}b`]);
    expect(resolved.citations.map((c) => [c.position, c.url, c.domain, c.rawUrl])).toEqual([
      [1, "https://www.acme.com/pricing", "acme.com", `${LINK}a`],
      [2, "https://globex.io", "globex.io", `${LINK}b`],
      [3, "https://wikipedia.org/wiki/Acme", "wikipedia.org", "https://wikipedia.org/wiki/Acme"],
    ]);
  });

  it("makes two links to one page one citation, at the first one's place, with both spans", async () => {
    const resolved = await resolveCitationRedirects(
      answer([
        citation(`${LINK}a`, 1, "acme.com", [{ start: 20, end: 29 }]),
        citation("https://globex.io/", 2, "globex.io", [{ start: 22, end: 25 }]),
        citation(`${LINK}c`, 3, "acme.com", [{ start: 0, end: 14 }]),
      ]),
      ["vertexaisearch.cloud.google.com"],
      async () => "https://acme.com/pricing",
    );
    expect(resolved.citations).toEqual([
      expect.objectContaining({
        position: 1,
        url: "https://acme.com/pricing",
        rawUrl: `${LINK}a`,
        spans: [
          { start: 0, end: 14 },
          { start: 20, end: 29 },
        ],
        start: 0,
        end: 14,
      }),
      expect.objectContaining({ position: 2, url: "https://globex.io/" }),
    ]);
  });

  it("keeps a link that leads nowhere, fails, or leads to another redirect link as the engine sent it", async () => {
    const cited = answer([
      citation(`${LINK}none`, 1, "acme.com", []),
      citation(`${LINK}error`, 2, "globex.io", []),
      citation(`${LINK}loop`, 3, "initech.com", []),
      citation(`${LINK}bad`, 4, "hooli.com", []),
    ]);
    const resolved = await resolveCitationRedirects(cited, ["vertexaisearch.cloud.google.com"], async (url) => {
      if (url.endsWith("error")) throw new Error("refused: resolves to a private address");
      if (url.endsWith("loop")) return `${LINK}again`;
      if (url.endsWith("bad")) return "javascript:alert(1)";
      return null;
    });
    expect(resolved).toEqual(cited);
  });

  it("follows nothing when no redirect host is set, and matches an exact host:port", async () => {
    let asked = 0;
    const follow = async () => {
      asked += 1;
      return "https://acme.com/";
    };
    const local = answer([citation("http://127.0.0.1:4000/grounding-api-redirect/a", 1, "127.0.0.1", [])]);
    expect(await resolveCitationRedirects(local, [], follow)).toBe(local);
    expect(await resolveCitationRedirects(local, ["127.0.0.1:4001"], follow)).toBe(local);
    expect(asked).toBe(0);
    const resolved = await resolveCitationRedirects(local, ["127.0.0.1:4000"], follow);
    expect(resolved.citations[0]).toMatchObject({ url: "https://acme.com", domain: "acme.com" });
    expect(asked).toBe(1);
  });
});
