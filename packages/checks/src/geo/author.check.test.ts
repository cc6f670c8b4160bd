import { judge } from "../fixture";
import { author } from "./author.check";

const page = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;
const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe("author", () => {
  it("passes with a JSON-LD author name", () => {
    const data = {
      "@context": "https://schema.org",
      "@type": "Article",
      author: { "@type": "Person", name: "Jane Doe" },
    };
    const verdict = judge(author, page(jsonLd(data)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/JSON-LD author "Jane Doe"/);
  });

  it("follows an @id reference to the Person node in a @graph", () => {
    const data = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "BlogPosting", author: { "@id": "https://example.com/#jane" } },
        { "@type": "Person", "@id": "https://example.com/#jane", name: "Jane Roe" },
      ],
    };
    expect(judge(author, page(jsonLd(data))).description).toMatch(/JSON-LD author "Jane Roe"/);
  });

  it("passes with meta author, rel=author or itemprop=author, reporting each kind", () => {
    expect(judge(author, page('<meta name="author" content="Jane Doe">')).description).toMatch(
      /<meta author> "Jane Doe"/,
    );
    expect(judge(author, page("", '<a rel="author" href="/jane">Jane Doe</a>')).description).toMatch(
      /rel="author" link "Jane Doe"/,
    );
    const both = judge(
      author,
      page('<meta name="author" content="Jane">', '<span itemprop="author"><span itemprop="name">Jane</span></span>'),
    );
    expect(both.description).toMatch(/<meta author> "Jane"; itemprop="author" "Jane"/);
  });

  it("fails without one; a bare URL is no name and humans.txt is no author", () => {
    expect(judge(author, page("", "<p>By the team</p>")).status).toBe("fail");
    const data = { "@context": "https://schema.org", "@type": "Article", author: "https://example.com/jane" };
    const verdict = judge(author, page(`${jsonLd(data)}<link rel="author" href="/humans.txt">`));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/No author found/);
  });
});
