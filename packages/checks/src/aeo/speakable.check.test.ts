import { judge } from "../fixture";
import { speakable } from "./speakable.check";

const page = (json: string) =>
  `<html><head><script type="application/ld+json">${json}</script></head><body></body></html>`;

describe("speakable", () => {
  it("passes with a speakable property", () => {
    const verdict = judge(
      speakable,
      page(
        '{"@context":"https://schema.org","@type":"WebPage","speakable":{"@type":"SpeakableSpecification","cssSelector":["h1"]}}',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("The WebPage markup has a speakable property.");
  });

  it("fails without one", () => {
    const verdict = judge(speakable, page('{"@context":"https://schema.org","@type":"WebPage"}'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/No speakable property/);
  });
});
