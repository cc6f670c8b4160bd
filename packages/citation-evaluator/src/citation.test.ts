import { mentionsBrand, rankFactor, scoreCitation } from "./citation";
import type { CitationObservation } from "./input";
import { siteOfUrl } from "./site";

const base: CitationObservation = {
  brandName: "Acme",
  targetUrl: "https://www.acme.com/pricing",
  responseText: "",
  citedSources: [],
};
const own = { url: "https://docs.acme.com/guide", sourceType: "primary" };
const other = { url: "https://rival.io/blog", sourceType: "news" };

describe("siteOfUrl", () => {
  it.each([
    ["https://www.acme.com/x", "acme.com"],
    ["https://docs.acme.com", "acme.com"],
    ["https://blog.example.co.uk/a", "example.co.uk"],
    ["https://user.github.io/repo", "user.github.io"],
    ["http://127.0.0.1:8080/p", "127.0.0.1"],
    ["http://localhost:3000/", "localhost"],
    ["https://WWW.ACME.COM./", "acme.com"],
    ["not a url", null],
  ])("%s → %s", (url, site) => {
    expect(siteOfUrl(url)).toBe(site);
  });
});

describe("mentionsBrand", () => {
  it.each([
    ["Acme makes anvils.", "Acme", true],
    ["try ACME today", "acme", true],
    ["Acme's anvils", "Acme", true],
    ["see acme.com", "Acme", true],
    ["Acmetron is different", "Acme", false],
    ["the Big   Corp\nteam", "Big Corp", true],
    ["BigCorp", "Big Corp", false],
    ["ＡＣＭＥ wins", "Acme", true],
    ["Café Olé serves", "café olé", true],
    ["C++ is a language", "C++", true],
    ["", "Acme", false],
  ])("%j names %j: %s", (text, brand, expected) => {
    expect(mentionsBrand(text, brand)).toBe(expected);
  });
});

describe("rankFactor", () => {
  it.each([
    [1, 1],
    [2, 0.9],
    [5, 0.6],
    [10, 0.1],
    [11, 0],
    [500, 0],
  ])("position %i → %d", (position, factor) => {
    expect(rankFactor(position)).toBeCloseTo(factor, 10);
  });
});

describe("scoreCitation: score = round(50·cited + 30·brand + 20·rank)", () => {
  it.each<[string, Partial<CitationObservation>, { label: string; score: number; isCited: boolean }]>([
    [
      "cited first and named",
      { responseText: "Acme is the best.", citedSources: [own, other] },
      { label: "verified_url", score: 100, isCited: true },
    ],
    [
      "cited second (index) without a name",
      { citedSources: [other, own] },
      { label: "verified_url", score: 68, isCited: true },
    ],
    [
      "cited, explicit position 3 wins over the index",
      { responseText: "Acme", citedSources: [own], position: 3 },
      { label: "verified_url", score: 96, isCited: true },
    ],
    [
      "cited at position 12: no rank points",
      { citedSources: [own], position: 12 },
      { label: "verified_url", score: 50, isCited: true },
    ],
    [
      "named only, position 3",
      { responseText: "Rivals and Acme.", citedSources: [other], position: 3 },
      { label: "brand_mentioned", score: 46, isCited: false },
    ],
    ["named only, position unknown", { responseText: "Acme" }, { label: "brand_mentioned", score: 30, isCited: false }],
    [
      "other sites cited, brand absent; a position is ignored",
      { responseText: "Rival is great", citedSources: [other], position: 1 },
      { label: "competitor_cited", score: 0, isCited: false },
    ],
    ["nothing cited, brand absent", { responseText: "No idea." }, { label: "not_cited", score: 0, isCited: false }],
    [
      "no optional fields at all",
      { responseText: undefined, citedSources: undefined },
      { label: "not_cited", score: 0, isCited: false },
    ],
    [
      "nulls count as absent",
      { responseText: null, citedSources: null, position: null },
      { label: "not_cited", score: 0, isCited: false },
    ],
    [
      "same registrable domain, other subdomain, is the target's site",
      { citedSources: [{ url: "http://acme.com/" }] },
      { label: "verified_url", score: 70, isCited: true },
    ],
    [
      "a look-alike domain is not",
      { citedSources: [{ url: "https://acme.com.evil.io/" }] },
      { label: "competitor_cited", score: 0, isCited: false },
    ],
  ])("%s", (_name, overrides, expected) => {
    const { label, score, isCited } = scoreCitation({ ...base, ...overrides });
    expect({ label, score, isCited }).toEqual(expected);
  });
});
