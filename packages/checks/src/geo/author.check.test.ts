import { corpusSnapshot, FIXED_SCAN_TIME, judge, judgeCorpusPage, snapshotOf } from "../fixture";
import { preparePage } from "../page";
import { author } from "./author.check";
import { visibleByline } from "./byline";

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

  it("asks the owner for the name when the page names no one, and proposes no made-up name", () => {
    const verdict = judge(author, page("", "<article><h1>Tides</h1><p>The moon pulls the sea.</p></article>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/^The page names no author, so its owner must supply the writer's name/);
    expect(verdict.fix).toContain('under the h1 "Tides"');
    expect(verdict.fix).not.toMatch(/Jane Doe|"name": "\.\.\."/);
  });

  const article = (lang: string, byline: string) =>
    `<html lang="${lang}"><head><title>Notes</title></head><body><article><h1>Notes</h1><p>${byline}</p><p>Some text of the article, long enough to be its text.</p></article></body></html>`;

  it.each([
    ["en", "By Jane Doe", "By Jane Doe"],
    ["en", "Posted by Alon Zakai.", "Posted by Alon Zakai."],
    ["en", "Written by Rob Ewaschuk", "Written by Rob Ewaschuk"],
    ["en", "BY JANE DOE | March 3, 2024", "BY JANE DOE | March 3, 2024"],
    [
      "fr",
      "Par Alexandre Hervaud et Jérémy Piette — 24 novembre 2017",
      "Par Alexandre Hervaud et Jérémy Piette — 24 novembre 2017",
    ],
    ["es", "Por María de la Cruz", "Por María de la Cruz"],
    ["pt", "Por João Silva, em 3 de março", "Por João Silva, em 3 de março"],
    ["de", "Von Anna Schmidt", "Von Anna Schmidt"],
    ["nl", "Door Jan van der Berg", "Door Jan van der Berg"],
    ["ja", "著者：山田太郎", "著者：山田太郎"],
  ])("reads a visible byline in %s: %s", (lang, byline, line) => {
    const verdict = judge(author, article(lang, byline));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(`The page names its author: the byline "${line}".`);
  });

  it("takes no sentence for a byline, and no byline of a teaser in a related-stories block", () => {
    expect(judge(author, article("en", "By Monday the shop had closed")).status).toBe("fail");
    expect(judge(author, article("es", "Por qué cerró la tienda")).status).toBe("fail");
    const teaser = `<html lang="en"><body><article><h1>Notes</h1><p>Some text.</p></article><div class="related-stories"><p>By Jane Doe</p></div></body></html>`;
    expect(judge(author, teaser).status).toBe("fail");
  });

  it("takes a one-author site's byline in its sidebar, but not a list of teasers' bylines", () => {
    const sidebar = (inner: string) =>
      `<html lang="en"><body><div id="Main"><p>Some text of the page.</p></div><div id="Sidebar">${inner}</div></body></html>`;
    expect(judge(author, sidebar("<p>By <strong>John Gruber</strong></p>")).description).toBe(
      'The page names its author: the byline "By John Gruber" beside the content (the site\'s author).',
    );
    expect(
      judge(author, sidebar("<ul><li><a>A story</a> By Jane Doe</li><li><a>B</a> By Joe Roe</li></ul>")).status,
    ).toBe("fail");
  });

  it("takes Open Graph article:author profile URLs as the author, as Open Graph defines them", () => {
    const verdict = judge(
      author,
      page(
        '<meta property="article:author" content="https://www.liberation.fr/auteur/5631-alexandre-hervaud"><meta property="article:author" content="https://www.liberation.fr/auteur/17350-jeremy-piette">',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      'The page names its author: <meta property="article:author"> profile https://www.liberation.fr/auteur/5631-alexandre-hervaud and 1 more.',
    );
  });

  it("says an author named only in JSON-LD wrapped in CDATA is unreadable, and to remove the wrapper", () => {
    const data = {
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      author: { "@type": "Person", name: "Jane Doe" },
    };
    const verdict = judge(
      author,
      page(`<script type="application/ld+json"><![CDATA[${JSON.stringify(data)}]]></script>`),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /^The page names its author, "Jane Doe", only in JSON-LD that engines cannot read: JSON-LD block 1/,
    );
    expect(verdict.fix).toMatch(/^Remove the <!\[CDATA\[/);
  });

  it.each([
    ["v8-blog", 'the byline "Posted by Alon Zakai."'],
    ["google-sre-book-1", 'the byline "Written by Rob Ewaschuk"'],
    ["daringfireball-1", 'the byline "By John Gruber" beside the content'],
    ["videos-2", 'the byline "Par Alexandre Hervaud et Jérémy Piette'],
  ])("finds the byline of the corpus page %s", (name, found) => {
    const verdict = judgeCorpusPage(author, name);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain(found);
  });

  it("bbc-1: Open Graph article:author names the author (an organisation, as Google allows)", () => {
    const verdict = judgeCorpusPage(author, "bbc-1");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe('The page names its author: <meta og:article:author> "BBC News".');
  });

  it("videos-2: article:author holds the authors' profile URLs, as Open Graph defines it", () => {
    const verdict = judgeCorpusPage(author, "videos-2");
    expect(verdict.description).toMatch(
      /<meta property="article:author"> profile https:\/\/www\.liberation\.fr\/auteur\/5631-alexandre-hervaud and 1 more\.$/,
    );
  });

  it("breitbart, wapo-1: a byline's spans are read apart, as a reader sees them, and the name stops at the date", () => {
    const breitbart = judgeCorpusPage(author, "breitbart");
    expect(breitbart.description).toBe('The page names its author: the byline "by Lucas Nolan 22 Dec 2016 651".');
    // glued, "Erin CunninghamMarch 18" was no name followed by a date: no byline was found
    const wapo = judgeCorpusPage(author, "wapo-1");
    expect(wapo.status).toBe("pass");
    expect(wapo.description).toContain('the byline "By Erin Cunningham March 18 at 3:57 PM');
    const nameOn = (name: string) => visibleByline(preparePage(corpusSnapshot(name), FIXED_SCAN_TIME))?.name;
    expect(nameOn("breitbart")).toBe("Lucas Nolan");
    expect(nameOn("wapo-1")).toBe("Erin Cunningham");
  });

  it("reads a byline set in side-by-side elements with the words apart, and keeps words split by markup whole", () => {
    const spans = `<html lang="en"><body><article><h1>Notes</h1><p class="byline"><span>by</span> <a href="/jane">Jane Doe</a><span>3 Mar 2024</span><a href="#comments">12</a></p><p>Some text of the <b>a</b>rticle, long enough to be its text.</p></article></body></html>`;
    expect(judge(author, spans).description).toBe('The page names its author: the byline "by Jane Doe 3 Mar 2024 12".');
    const nameIn = (line: string) =>
      visibleByline(
        preparePage(
          snapshotOf(`<html lang="en"><body><article><h1>Notes</h1><p>${line}</p><p>Text.</p></article></body></html>`),
          FIXED_SCAN_TIME,
        ),
      )?.name;
    expect(nameIn("By Jane Doe March 3, 2024")).toBe("Jane Doe");
    expect(nameIn("By Theresa May")).toBe("Theresa May");
    const microdata = `<html><body><p><span itemprop="author"><span>Jane</span><span>Doe</span></span></p></body></html>`;
    expect(judge(author, microdata).description).toBe('The page names its author: itemprop="author" "Jane Doe".');
  });
});

describe("author: the byline under a headline in a layout wrapper", () => {
  it("reads the byline of an article whose layout wrapper is named for its sidebar", () => {
    const html = page(
      "<title>The failure of schooling in one chart</title>",
      `<div class="content-sidebar-wrap"><main><article><header><h1>The failure of schooling in one chart</h1><p>By <a href="/author/bw">Bushrod Washington</a><br>Published December 21, 2016</p></header><p>${"Schools are failing, and the chart shows it plainly. ".repeat(8)}</p></article></main><aside class="sidebar">Popular</aside></div>`,
    );
    const verdict = judge(author, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/the byline "By Bushrod Washington"/);
  });
});
