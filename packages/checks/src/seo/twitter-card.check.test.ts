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

describe("twitter-card: the card with the page's own image and title", () => {
  it("names the og:image and og:title a large card shows", () => {
    const verdict = judge(
      twitterCard,
      `<html><head><meta property="og:image" content="https://example.com/lead.jpg"><meta property="og:title" content="Widgets for teams"></head><body></body></html>`,
    );
    expect(verdict.fix).toMatch(
      /content="summary_large_image">.*og:image \(https:\/\/example\.com\/lead\.jpg\) under its og:title "Widgets for teams"/,
    );
  });

  it("proposes the content's first image as twitter:image when there is no og:image", () => {
    const verdict = judge(
      twitterCard,
      `<html><head><title>Widgets</title></head><body><main><h1>Widgets</h1><p>Text of the page, long enough.</p><img src="/w.jpg" alt="A widget"></main></body></html>`,
    );
    expect(verdict.fix).toMatch(
      /<meta name="twitter:image" content="https:\/\/example\.com\/w\.jpg"> \(the content's first image\)/,
    );
  });

  it("asks the owner for an image when the page shows none", () => {
    const verdict = judge(twitterCard, `<html><head><title>Widgets</title></head><body><p>Text.</p></body></html>`);
    expect(verdict.fix).toMatch(/content="summary">.*under its <title> "Widgets".*its owner must supply one/);
  });
});
