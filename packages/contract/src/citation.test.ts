import { CitationListQuery, RecordCitationRequest } from "./citation";

const SITE = "7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11";

describe("CitationListQuery", () => {
  it("defaults to every engine over the last 30 days", () => {
    expect(CitationListQuery.parse({})).toEqual({ page: 1, limit: 20, engine: "all", date_range: "30d" });
  });

  it.each(["chatgpt", "claude", "perplexity", "gemini", "all"])("takes engine %s", (engine) => {
    expect(CitationListQuery.parse({ engine }).engine).toBe(engine);
  });

  it.each(["7d", "30d", "90d"])("takes date_range %s", (range) => {
    expect(CitationListQuery.parse({ date_range: range }).date_range).toBe(range);
  });

  it.each([
    ["engine", "bing"],
    ["engine", "ChatGPT"],
    ["engine", ""],
    ["date_range", "1d"],
    ["date_range", "30"],
    ["date_range", "365d"],
    ["site_id", "123"],
    ["platform", "claude"],
  ])("refuses %s=%p", (name, value) => {
    expect(CitationListQuery.safeParse({ [name]: value }).success).toBe(false);
  });
});

describe("RecordCitationRequest", () => {
  const valid = {
    site_id: SITE,
    platform: "perplexity",
    query_text: "best crm for startups",
    cited: true,
    citation_url: "https://example.com/crm",
  };

  it("takes a cited observation with its URL, and checked_at with an offset", () => {
    expect(RecordCitationRequest.parse({ ...valid, checked_at: "2026-11-20T10:00:00+01:00" })).toEqual({
      ...valid,
      checked_at: "2026-11-20T10:00:00+01:00",
    });
  });

  it("needs citation_url when cited, and not otherwise", () => {
    const missing = RecordCitationRequest.safeParse({ ...valid, citation_url: undefined });
    expect(missing.error?.issues[0]).toMatchObject({
      path: ["citation_url"],
      message: "is required when cited is true",
    });
    expect(RecordCitationRequest.safeParse({ ...valid, citation_url: null }).success).toBe(false);
    expect(RecordCitationRequest.safeParse({ ...valid, cited: false, citation_url: null }).success).toBe(true);
    expect(RecordCitationRequest.safeParse({ ...valid, cited: false, citation_url: undefined }).success).toBe(true);
  });

  it("stores citation_url as the URL parser writes it", () => {
    expect(
      RecordCitationRequest.parse({ ...valid, citation_url: " https://EXAMPLE.com/a b\u0000c " }).citation_url,
    ).toBe("https://example.com/a%20b%00c");
  });

  it.each([
    ["platform", "bing"],
    ["platform", "all"],
    ["query_text", "  "],
    ["query_text", "q".repeat(501)],
    ["cited", "yes"],
    ["citation_url", "ftp://example.com/x"],
    ["citation_url", "example.com/x"],
    ["query_text", "best\u0000crm"],
    ["checked_at", "yesterday"],
    ["checked_at", "2026-11-20"],
    ["site_id", "x"],
    ["engine", "claude"],
  ])("refuses %s %p", (field, value) => {
    expect(RecordCitationRequest.safeParse({ ...valid, [field]: value }).success).toBe(false);
  });
});
