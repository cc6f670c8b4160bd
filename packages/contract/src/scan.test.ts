import { BatchScanRequest, MAX_BATCH_URLS, ScanListQuery } from "./scan";

describe("BatchScanRequest", () => {
  const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/${i}`);

  it("takes 1 to 100 URLs, full mode by default", () => {
    expect(BatchScanRequest.parse({ urls: urls(1) })).toEqual({ urls: urls(1), mode: "full" });
    expect(BatchScanRequest.parse({ urls: urls(MAX_BATCH_URLS), mode: "quick" }).urls).toHaveLength(100);
  });

  it.each([
    ["no URL", { urls: [] }, "urls must hold at least one URL"],
    ["101 URLs", { urls: urls(101) }, "urls must hold at most 100 URLs"],
    ["no urls", {}, "urls is required and must be an array"],
    ["a URL that is not a string", { urls: [1] }, "each url must be a string"],
  ])("refuses %s", (_name, body, message) => {
    const parsed = BatchScanRequest.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it("refuses unknown fields and other modes", () => {
    expect(BatchScanRequest.safeParse({ urls: urls(1), url: "x" }).success).toBe(false);
    expect(BatchScanRequest.safeParse({ urls: urls(1), mode: "deep" }).success).toBe(false);
  });
});

describe("ScanListQuery", () => {
  it("defaults to every status, page 1 and limit 20", () => {
    expect(ScanListQuery.parse({})).toEqual({ page: 1, limit: 20 });
  });

  it.each(["queued", "running", "completed", "failed"])("filters by status %s", (status) => {
    expect(ScanListQuery.parse({ status, limit: "5" })).toEqual({ status, page: 1, limit: 5 });
  });

  it.each([{ status: "done" }, { status: "Completed" }, { status: ["queued", "failed"] }, { sort: "created_at" }])(
    "refuses %p",
    (query) => {
      expect(ScanListQuery.safeParse(query).success).toBe(false);
    },
  );
});
