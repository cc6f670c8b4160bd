import { checkGaps, citedPagesOf } from "./cited-pages";

const answer = (promptId: string, ...urls: string[]) => ({
  promptId,
  promptText: `prompt ${promptId}`,
  citations: urls.map((url) => ({ url, domain: new URL(url).hostname.replace(/^www\./, "") })),
});

describe("citedPagesOf", () => {
  const competitors = [{ name: "Globex", domains: ["globex.io"] }];
  const bounds = { brandPages: 2, competitorPages: 2 };

  it("keeps the brand's pages, and other pages only from answers that cited none of the brand's", () => {
    const { pages, prompts } = citedPagesOf(
      [
        answer("a", "https://acme.com/pricing", "https://globex.io/pricing"),
        answer("a", "https://globex.io/pricing", "https://g2.com/trackers"),
        answer("b", "https://acme.com/pricing"),
      ],
      ["acme.com"],
      competitors,
      bounds,
    );
    expect(pages).toEqual([
      { url: "https://acme.com/pricing", domain: "acme.com", side: "brand", competitor: null, citations: 2 },
      { url: "https://g2.com/trackers", domain: "g2.com", side: "competitor", competitor: null, citations: 1 },
      { url: "https://globex.io/pricing", domain: "globex.io", side: "competitor", competitor: "Globex", citations: 1 },
    ]);
    expect(prompts).toEqual([
      {
        promptId: "a",
        prompt: "prompt a",
        brand: [{ url: "https://acme.com/pricing", citations: 1 }],
        competitor: [
          { url: "https://g2.com/trackers", citations: 1 },
          { url: "https://globex.io/pricing", citations: 1 },
        ],
      },
      { promptId: "b", prompt: "prompt b", brand: [{ url: "https://acme.com/pricing", citations: 1 }], competitor: [] },
    ]);
  });

  it("cuts each side to its bound, most cited first, and leaves out redirect links", () => {
    const { pages } = citedPagesOf(
      [
        answer("a", "https://globex.io/1", "https://globex.io/2", "https://globex.io/3"),
        answer("a", "https://globex.io/3"),
        answer("b", "https://globex.io/2"),
        {
          promptId: "c",
          promptText: "c",
          citations: [{ url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/x", domain: "globex.io" }],
        },
      ],
      ["acme.com"],
      competitors,
      bounds,
    );
    expect(pages.map((page) => [page.url, page.citations])).toEqual([
      ["https://globex.io/2", 2],
      ["https://globex.io/3", 2],
    ]);
  });
});

describe("checkGaps", () => {
  const check = (id: string, status: "pass" | "warn" | "fail" | "skip") => ({
    id,
    status,
    title: id,
    category: "aeo",
    severity: "warning",
  });

  it("names the checks the cited page passes and the brand's page fails or warns on", () => {
    const yours = [check("faq", "fail"), check("title", "pass"), check("schema", "warn"), check("llms", "skip")];
    const theirs = [check("faq", "pass"), check("title", "pass"), check("schema", "pass"), check("llms", "pass")];
    expect(checkGaps(yours, theirs).map((gap) => [gap.check, gap.yours])).toEqual([
      ["faq", "fail"],
      ["schema", "warn"],
    ]);
    expect(checkGaps(theirs, yours)).toEqual([]);
  });
});
