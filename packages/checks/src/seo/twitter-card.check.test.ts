import { judge } from "../fixture";
import { twitterCard } from "./twitter-card.check";

describe("twitter-card", () => {
  it("passes with twitter:card", () => {
    const verdict = judge(
      twitterCard,
      '<html><head><meta name="twitter:card" content="summary_large_image"></head></html>',
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("summary_large_image");
  });

  it("fails without it", () => {
    const verdict = judge(twitterCard, '<html><head><meta property="og:title" content="T"></head></html>');
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("no twitter:card");
  });
});
