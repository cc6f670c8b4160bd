import { bandFor, scoreEvidence, sourceTypeWeight } from "./evidence";

describe("sourceTypeWeight", () => {
  it.each([
    ["primary", 1],
    [" Primary ", 1],
    ["academic", 0.9],
    ["government", 0.9],
    ["news", 0.7],
    ["secondary", 0.6],
    ["review", 0.5],
    ["forum", 0.3],
    ["social", 0.3],
    ["blog", 0.25],
    ["", 0.25],
    [null, 0.25],
    [undefined, 0.25],
    ["__proto__", 0.25],
    ["constructor", 0.25],
    ["toString", 0.25],
    ["hasOwnProperty", 0.25],
  ])("%j → %d", (type, weight) => {
    expect(sourceTypeWeight(type)).toBe(weight);
  });
});

describe("bandFor", () => {
  it.each([
    [100, "good"],
    [75, "good"],
    [74, "fair"],
    [50, "fair"],
    [49, "weak"],
    [25, "weak"],
    [24, "poor"],
    [0, "poor"],
  ])("%i → %s", (score, band) => {
    expect(bandFor(score)).toBe(band);
  });
});

describe("scoreEvidence: score = round(40·w + 35·supports + 15·url + 10·snippet)", () => {
  const url = "https://example.org/study";
  it.each([
    [{ sourceType: "primary", supportsClaim: true, url, snippet: "42 % of ..." }, 100, "good"],
    [{ sourceType: "news", supportsClaim: true, url, snippet: "quote" }, 88, "good"],
    [{ sourceType: "forum", supportsClaim: true, url, snippet: "quote" }, 72, "fair"],
    [{ sourceType: "primary", supportsClaim: false, url, snippet: "quote" }, 65, "fair"],
    [{ sourceType: "mystery", supportsClaim: true, url }, 60, "fair"],
    [{ sourceType: "secondary", supportsClaim: true }, 59, "fair"],
    [{ sourceType: "primary", url, snippet: "   " }, 55, "fair"],
    [{ sourceType: "review", url }, 35, "weak"],
    [{ supportsClaim: false }, 10, "poor"],
    [{}, 10, "poor"],
    [{ sourceType: null, url: null, snippet: null, supportsClaim: null }, 10, "poor"],
  ])("%j → %i %s", (item, score, band) => {
    const result = scoreEvidence(item);
    expect({ score: result.score, band: result.band }).toEqual({ score, band });
  });
});
