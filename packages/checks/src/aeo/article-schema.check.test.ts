import { judge, judgeCorpusPage } from "../fixture";
import { articleSchema } from "./article-schema.check";

const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;
const page = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;

describe("article-schema", () => {
  it("passes with headline, author and datePublished", () => {
    const json =
      '{"@context":"https://schema.org","@type":"BlogPosting","headline":"Hi","author":{"@type":"Person","name":"Ann"},"datePublished":"2026-01-02"}';
    const verdict = judge(articleSchema, page(ld(json)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("BlogPosting JSON-LD with headline, author and datePublished.");
  });

  it("warns when fields are missing", () => {
    const verdict = judge(
      articleSchema,
      page(ld('{"@context":"https://schema.org","@type":"NewsArticle","headline":"Hi"}')),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe("NewsArticle JSON-LD lacks author, datePublished.");
    // the date to add is the page's own, or its owner's to supply: never an example date
    expect(verdict.fix).toContain("datePublished as YYYY-MM-DD: the page shows no date, so its owner must supply it");
    const shown = judge(
      articleSchema,
      page(
        ld('{"@context":"https://schema.org","@type":"NewsArticle","headline":"Hi"}'),
        "<article><h1>Hi</h1><p>March 3, 2025. Rain fell.</p></article>",
      ),
    );
    expect(shown.fix).toContain('(datePublished "2025-03-03": the page shows "March 3, 2025")');
    const stated = judge(
      articleSchema,
      page(
        ld('{"@context":"https://schema.org","@type":"NewsArticle","headline":"Hi"}') +
          '<meta property="article:published_time" content="2024-02-01T08:00:00Z">',
      ),
    );
    expect(stated.fix).toContain('(datePublished "2024-02-01", the page\'s <meta article:published_time>)');
  });

  it("fails when the page is an <article> without markup", () => {
    const verdict = judge(articleSchema, page("", "<article><h1>Story</h1><p>Text</p></article>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /but has no Article, BlogPosting or NewsArticle in JSON-LD, microdata or RDFa\./,
    );
  });

  it("proposes the markup with the page's own headline, byline and date, or asks the owner for what it lacks", () => {
    const headline = "Tides rise higher on the coast this winter than in any of the last twenty years";
    const shown = judge(
      articleSchema,
      page(
        "<title>Tides</title>",
        `<article><h1>${headline}</h1><p>By Ann Lee, 6 May 2024</p><p>The moon pulls the sea.</p></article>`,
      ),
    );
    expect(shown.fix).toContain(`headline "${headline}"`);
    expect(shown.fix).toContain('author {"@type": "Person", "name": "Ann Lee"} (the page\'s byline)');
    expect(shown.fix).toContain('datePublished "2024-05-06" (the page shows "6 May 2024")');
    const bare = judge(
      articleSchema,
      page("<title>Tides</title>", "<article><p>The moon pulls the sea.</p></article>"),
    );
    expect(bare.fix).toContain('headline "Tides" (its <title>)');
    expect(bare.fix).toContain("the page names no author, so its owner must supply the name");
    expect(bare.fix).toContain("the page shows no date, so its owner must supply it");
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

  it("reads an Article in microdata and RDFa with the same field rules, and says which syntax it found", () => {
    const microdata = `<article itemscope itemtype="https://schema.org/NewsArticle"><h1 itemprop="headline">Hi</h1>
      <p>By <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ann</span></span>
      <time itemprop="datePublished" datetime="2026-01-02">2 January</time></p></article>`;
    const verdict = judge(articleSchema, page("", microdata));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("NewsArticle microdata with headline, author and datePublished.");
    const rdfa = `<article vocab="https://schema.org/" typeof="BlogPosting"><h1 property="headline">Hi</h1><p property="author">Ann</p></article>`;
    const partial = judge(articleSchema, page("", rdfa));
    expect(partial.status).toBe("warn");
    expect(partial.description).toBe("BlogPosting RDFa lacks datePublished.");
    expect(partial.fix).toMatch(
      /^Add BlogPosting JSON-LD with headline "Hi", author \(a Person with a name\) and datePublished/,
    );
    // a property of another item, or a word outside schema.org, is not the article's
    const outside = `<p itemprop="author">Ann</p><article itemscope itemtype="https://schema.org/Article"><h1 itemprop="headline">Hi</h1><time itemprop="datePublished" datetime="2026-01-02">2 Jan</time></article>`;
    expect(
      judge(articleSchema, page("", `<div itemscope itemtype="https://schema.org/WebPage">${outside}</div>`))
        .description,
    ).toBe(
      'Article microdata lacks author (the page\'s itemprop="author" ("Ann") stands outside its itemscope, in another item).',
    );
    expect(judge(articleSchema, page("", '<div itemscope itemtype="https://example.org/Article"></div>')).status).toBe(
      "skip",
    );
  });

  it("guardian-1, nytimes-1: the NewsArticle the page declares in microdata counts", () => {
    const guardian = judgeCorpusPage(articleSchema, "guardian-1");
    expect(guardian.status).toBe("warn");
    expect(guardian.description).toBe(
      'NewsArticle microdata lacks author (the page\'s itemprop="author" ("Eleanor Ainge Roy") stands outside its itemscope, in another item).',
    );
    expect(guardian.fix).toMatch(/^Add NewsArticle JSON-LD with headline/);
    const nytimes = judgeCorpusPage(articleSchema, "nytimes-1");
    expect(nytimes.status).toBe("pass");
    expect(nytimes.description).toBe("NewsArticle microdata with headline, author and datePublished.");
  });
});
