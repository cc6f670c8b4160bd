import type { Request } from "express";
import { lastPageOf, pageLinks } from "./pagination";

const request = (originalUrl: string, host: string | undefined = "api.example.com", protocol = "https") =>
  ({ originalUrl, host, protocol }) as unknown as Request;

const linksOf = (header: string) =>
  Object.fromEntries(
    header.split(", ").map((part) => {
      const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part) ?? [];
      return [rel, url];
    }),
  );

describe("pageLinks", () => {
  const meta = (page: number, limit: number, total: number) => ({ page, limit, total, hasMore: page * limit < total });

  it("names first and last always, prev and next where they lead somewhere", () => {
    expect(linksOf(pageLinks(request("/api/v1/sites?limit=5"), meta(1, 5, 12)))).toEqual({
      next: "https://api.example.com/api/v1/sites?limit=5&page=2",
      first: "https://api.example.com/api/v1/sites?limit=5&page=1",
      last: "https://api.example.com/api/v1/sites?limit=5&page=3",
    });
    expect(linksOf(pageLinks(request("/api/v1/sites?page=3&limit=5"), meta(3, 5, 12)))).toEqual({
      prev: "https://api.example.com/api/v1/sites?page=2&limit=5",
      first: "https://api.example.com/api/v1/sites?page=1&limit=5",
      last: "https://api.example.com/api/v1/sites?page=3&limit=5",
    });
  });

  it("leads back to the last page from past the end, and has one page for an empty list", () => {
    expect(linksOf(pageLinks(request("/x?page=9"), meta(9, 20, 30))).prev).toBe("https://api.example.com/x?page=2");
    expect(linksOf(pageLinks(request("/x"), meta(1, 20, 0)))).toEqual({
      first: "https://api.example.com/x?page=1",
      last: "https://api.example.com/x?page=1",
    });
    expect(lastPageOf(meta(1, 20, 0))).toBe(1);
    expect(lastPageOf(meta(1, 20, 41))).toBe(3);
  });

  it("keeps the other parameters, encoded, and falls back to a path without a host", () => {
    expect(linksOf(pageLinks(request("/api/v1/sites?q=50%25+off&limit=1"), meta(1, 1, 2))).next).toBe(
      "https://api.example.com/api/v1/sites?q=50%25+off&limit=1&page=2",
    );
    expect(linksOf(pageLinks(request("/x", ""), meta(1, 1, 2))).next).toBe("/x?page=2");
  });
});
