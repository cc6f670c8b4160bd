import { KeywordListQuery, keywordTrend, RecordKeywordRequest } from "./keyword";

const SITE = "7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11";

describe("keywordTrend", () => {
  it.each([
    [null, 5, "new"],
    [10, 3, "up"],
    [3, 10, "down"],
    [7, 7, "flat"],
    [2, 1, "up"],
  ] as const)("from %p to %i is %s", (previous, current, trend) => {
    expect(keywordTrend(previous, current)).toBe(trend);
  });
});

describe("RecordKeywordRequest", () => {
  const valid = { site_id: SITE, keyword: "  Best   CRM\tfor Startups ", position: 4, volume: 1900, difficulty: 42 };

  it("normalises the keyword: trimmed, whitespace collapsed, lower-cased", () => {
    expect(RecordKeywordRequest.parse(valid).keyword).toBe("best crm for startups");
  });

  it.each([
    ["position", 0],
    ["position", 1001],
    ["position", 1.5],
    ["position", "4"],
    ["volume", -1],
    ["difficulty", 101],
    ["difficulty", -1],
    ["keyword", "   "],
    ["keyword", "crm\u0000"],
    ["keyword", "x".repeat(201)],
    ["site_id", "nope"],
    ["extra", 1],
  ])("refuses %s %p", (field, value) => {
    expect(RecordKeywordRequest.safeParse({ ...valid, [field]: value }).success).toBe(false);
  });

  it("requires every field", () => {
    for (const field of Object.keys(valid)) {
      const { [field as keyof typeof valid]: _omitted, ...rest } = valid;
      expect(RecordKeywordRequest.safeParse(rest).success).toBe(false);
    }
  });

  it("accepts the bounds", () => {
    expect(RecordKeywordRequest.safeParse({ ...valid, position: 1, volume: 0, difficulty: 0 }).success).toBe(true);
    expect(RecordKeywordRequest.safeParse({ ...valid, position: 1000, difficulty: 100 }).success).toBe(true);
  });
});

describe("KeywordListQuery", () => {
  it("defaults and takes site_id", () => {
    expect(KeywordListQuery.parse({})).toEqual({ page: 1, limit: 20 });
    expect(KeywordListQuery.parse({ site_id: SITE })).toEqual({ page: 1, limit: 20, site_id: SITE });
    expect(KeywordListQuery.safeParse({ site: SITE }).success).toBe(false);
  });
});
