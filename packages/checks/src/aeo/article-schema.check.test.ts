import { judge } from "../fixture";
import { articleSchema } from "./article-schema.check";

const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;
const page = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;

describe("article-schema", () => {
  it("passes with headline, author and datePublished", () => {
    const json =
      '{"@context":"https://schema.org","@type":"BlogPosting","headline":"Hi","author":{"@type":"Person","name":"Ann"},"datePublished":"2026-01-02"}';
    const verdict = judge(articleSchema, page(ld(json)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("BlogPosting markup with headline, author and datePublished.");
  });

  it("warns when fields are missing", () => {
    const verdict = judge(
      articleSchema,
      page(ld('{"@context":"https://schema.org","@type":"NewsArticle","headline":"Hi"}')),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe("NewsArticle markup lacks author, datePublished.");
  });

  it("fails when the page is an <article> without markup", () => {
    const verdict = judge(articleSchema, page("", "<article><h1>Story</h1><p>Text</p></article>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/its JSON-LD has no Article, BlogPosting or NewsArticle\./);
  });

  it("skips pages that are not articles, listing cards included", () => {
    expect(judge(articleSchema, page("", "<main><h1>Shop</h1></main>")).status).toBe("skip");
    const listing = judge(
      articleSchema,
      page("", "<h1>Blog</h1><article><h2>A</h2></article><article><h2>B</h2></article>"),
    );
    expect(listing.status).toBe("skip");
    expect(listing.description).toMatch(/not an article/);
  });
});
