import type { AuditPageView } from "@scan/contract";
import { pagesCsv, streamPagesCsv } from "./exports";

const view = (overrides: Partial<AuditPageView>): AuditPageView => ({
  id: "6c0e5a1e-9d3b-4d8a-8b57-3f0f2a1c9e01",
  url: "https://example.com/",
  depth: 0,
  in_sitemap: true,
  status: "scanned",
  http_status: 200,
  final_url: "https://example.com/",
  judged: true,
  scores: { seo: 80, aeo: 70, geo: 60, overall: 71, total: 71 },
  grade: "B",
  issues: { critical: 1, warning: 0, info: 0 },
  checks: [
    {
      id: "title",
      category: "seo",
      status: "fail",
      score: 0,
      maxScore: 6,
      severity: "critical",
      title: "Page has a title",
      description: "No title.",
      fix: "Add one.",
    },
  ],
  error: null,
  scanned_at: "2025-03-01T10:00:00.000Z",
  ...overrides,
});

describe("the pages CSV", () => {
  const pages = [
    view({}),
    view({ url: "https://example.com/=cmd", status: "failed", checks: null, scores: null, error: "answered 503" }),
    view({ url: "https://example.com/private", status: "blocked", http_status: null, judged: false, checks: null }),
  ];

  it("lists every page with its failing checks, as a spreadsheet reads it", () => {
    const lines = pagesCsv(pages).split("\r\n");
    expect(lines[0]).toMatch(/^\uFEFFurl,status,http_status,/);
    expect(lines[1]).toBe("https://example.com/,scanned,200,https://example.com/,0,true,71,80,70,60,B,1,0,0,title,");
    expect(lines[2]).toContain("https://example.com/=cmd,failed,");
    expect(lines).toHaveLength(5);
  });

  it("streamed a line per page, is the same file byte for byte", async () => {
    const parts: string[] = [];
    for await (const part of streamPagesCsv(
      (async function* () {
        yield* pages;
      })(),
    ))
      parts.push(part);
    expect(parts).toHaveLength(pages.length + 1);
    expect(parts.join("")).toBe(pagesCsv(pages));
  });
});
