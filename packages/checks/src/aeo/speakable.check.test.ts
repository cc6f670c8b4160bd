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

  it("skips a page that is no news article: speakable is a beta for news publishers", () => {
    const verdict = judge(speakable, page('{"@context":"https://schema.org","@type":"WebPage"}'));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toBe(
      "Not applicable: speakable is a beta for news articles, and nothing marks this page as one (JSON-LD WebPage).",
    );
  });

  it("fails on a news article without one, saying what makes it news", () => {
    const verdict = judge(
      speakable,
      page('{"@context":"https://schema.org","@type":"NewsArticle","headline":"Rates rise"}'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe(
      "The page is a news article (its JSON-LD declares a NewsArticle) with no speakable property in its readable JSON-LD.",
    );
    const bbc = judge(
      speakable,
      '<html><head><meta property="og:type" content="article"><meta property="og:site_name" content="BBC News"></head><body></body></html>',
    );
    expect(bbc.description).toMatch(/\(it is an og:type article of "BBC News"\)/);
  });

  it("on a news article whose NewsArticle block is wrapped in CDATA, says so and to remove the wrapper first", () => {
    const verdict = judge(speakable, page('<![CDATA[{"@context":"https://schema.org","@type":"NewsArticle"}]]>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/declares a NewsArticle in a block that does not parse/);
    expect(verdict.fix).toMatch(/^Remove the <!\[CDATA\[.* Then add "speakable"/);
  });

  it("takes a NewsArticle declared in microdata for a news article", () => {
    const verdict = judge(
      speakable,
      '<html><head><title>Rates rise</title></head><body><article itemscope itemtype="http://schema.org/NewsArticle"><h1 itemprop="headline">Rates rise</h1><p>The bank raised its rates.</p></article></body></html>',
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/its microdata declares a NewsArticle/);
  });
});
