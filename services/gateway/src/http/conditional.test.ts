import { noneMatchHits, strongTagOf, weakTagOf } from "./conditional";

describe("entity tags", () => {
  it("are quoted, and weak ones prefixed W/, and follow what they tag", () => {
    expect(strongTagOf("x")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(weakTagOf({ a: 1 })).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(weakTagOf({ a: 1 })).toBe(weakTagOf({ a: 1 }));
    expect(weakTagOf({ a: 1 })).not.toBe(weakTagOf({ a: 2 }));
  });
});

describe("noneMatchHits (weak comparison)", () => {
  const tag = 'W/"abc"';
  it("matches the tag with or without W/, in a list, and *", () => {
    expect(noneMatchHits('W/"abc"', tag)).toBe(true);
    expect(noneMatchHits('"abc"', tag)).toBe(true);
    expect(noneMatchHits('"x", W/"abc" , "y"', tag)).toBe(true);
    expect(noneMatchHits("*", tag)).toBe(true);
    expect(noneMatchHits('W/"abc"', '"abc"')).toBe(true);
  });
  it("does not match another tag, a bare value, or no header", () => {
    expect(noneMatchHits('"abd"', tag)).toBe(false);
    expect(noneMatchHits("abc", tag)).toBe(false);
    expect(noneMatchHits("", tag)).toBe(false);
    expect(noneMatchHits(undefined, tag)).toBe(false);
  });
});
