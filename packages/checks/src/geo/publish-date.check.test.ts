import { judge, judgeCorpusPage } from "../fixture";
import { publishDate } from "./publish-date.check";

// FIXED_SCAN_TIME is 2026-06-01
const withHead = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;
const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe("publish-date", () => {
  it("passes with JSON-LD datePublished and dateModified, reporting both", () => {
    const data = {
      "@context": "https://schema.org",
      "@type": "Article",
      datePublished: "2026-03-01",
      dateModified: "2026-04-02T08:00:00Z",
    };
    const verdict = judge(publishDate, withHead(jsonLd(data)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /published 2026-03-01 \(JSON-LD datePublished\), modified 2026-04-02 \(JSON-LD dateModified\)/,
    );
  });

  it("passes with article:published_time or <time datetime>", () => {
    expect(
      judge(publishDate, withHead('<meta property="article:published_time" content="2025-01-02T10:00:00Z">')).status,
    ).toBe("pass");
    const verdict = judge(publishDate, withHead("", '<time datetime="2024-05-06">May 6</time>'));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2024-05-06 \(<time datetime>\)/);
  });

  it("fails with only a human-readable date", () => {
    const verdict = judge(publishDate, withHead("", "<p>Published May 6, 2024</p><time>May 6</time>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no machine-readable/);
  });

  it("ignores dates more than a day in the future and placeholders, and says so", () => {
    const verdict = judge(
      publishDate,
      withHead('<meta property="article:published_time" content="2031-01-01">', '<time datetime="1970-01-01"></time>'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/more than a day after the scan was ignored \(2031-01-01/);
    // within a day is time zones, not the future
    expect(judge(publishDate, withHead("", '<time datetime="2026-06-02T06:00:00Z"></time>')).status).toBe("pass");
  });

  it("does not take a teaser's <time> beside the article for the page's date", () => {
    const html = `<html><head><title>Rates rise</title></head><body><article><h1>Rates rise</h1><p>The bank raised its rates again today.</p></article>
      <div class="related-stories"><a href="/other">Another story</a> <time datetime="2026-05-20">20 May</time></div></body></html>`;
    const verdict = judge(publishDate, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/Not counted, as not the page's own: 1 <time> date/);
    expect(verdict.fix).toMatch(/under the h1 "Rates rise"/);
  });

  it("takes the article's microdata datePublished, even from an <aside> of the article", () => {
    const story = "<p>The bank raised its rates again today, the third rise this year, to the surprise of many.</p>";
    const html = `<html><head><title>Rates rise</title></head><body><article itemscope itemtype="https://schema.org/BlogPosting"><header><h2 itemprop="name">Rates rise</h2></header><section>${story.repeat(4)}</section>
      <aside><span itemprop="author">Jane Doe</span> <time datetime="2024-05-06" itemprop="datePublished">6 May 2024</time></aside></article>
      <aside><ul><li itemscope itemtype="https://schema.org/BlogPosting"><a href="/other" itemprop="name">Another story</a> <time datetime="2026-05-20" itemprop="datePublished">20 May</time></li></ul></aside></body></html>`;
    const verdict = judge(publishDate, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/published 2024-05-06 \(<time datetime>\)/);
    // a teaser's item holds its own story, not the page's content
    expect(verdict.description).toMatch(
      /Not counted, as not the page's own: 1 <time> date .* \(the newest 2026-05-20\)/,
    );
  });

  it("001: the post's <time itemprop=datePublished> in the <aside> of its BlogPosting is the page's date", () => {
    const verdict = judgeCorpusPage(publishDate, "001");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/published 2013-09-29 \(<time datetime>\)/);
  });

  it("reads a date meta by any of its keys: <meta property=article:published itemprop=datePublished>", () => {
    const verdict = judge(
      publishDate,
      withHead('<meta property="article:published" itemprop="datePublished" content="2017-01-13T00:00:04-05:00">'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/published 2017-01-13 \(<meta datepublished>\)/);
  });

  it("proposes the date the page shows, not a made-up one", () => {
    const verdict = judge(
      publishDate,
      withHead(
        "<title>Tides</title>",
        "<article><h1>Tides</h1><p>By Ann Lee, 6 May 2024</p><p>The moon pulls the sea.</p></article>",
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('It shows the date "6 May 2024" as plain text.');
    expect(verdict.fix).toContain('<time datetime="2024-05-06">6 May 2024</time>');
    expect(verdict.fix).toContain('datePublished ("2024-05-06")');
    const cjk = judge(publishDate, withHead("", "<article><h1>潮汐</h1><p>2023年11月2日 发布</p></article>"));
    expect(cjk.fix).toContain('<time datetime="2023-11-02">2023年11月2日</time>');
  });

  it("reads the dateline set beside the headline, outside the article's text", () => {
    const paragraph =
      "<p>The moon pulls the sea toward it, and the sea rises on the side of the earth that faces it, twice a day, as the earth turns beneath the bulge of water that follows the moon.</p>";
    const verdict = judge(
      publishDate,
      withHead(
        "<title>Tides rise</title>",
        `<div class="headline"><h1>Tides rise</h1><div class="byline">By Ann Lee</div><div class="stamp">Updated: Dec 15, 2016 2:57 PM UTC</div></div><div class="story">${paragraph.repeat(6)}</div><div class="footer"><p>Copyright March 3, 2020</p></div>`,
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('It shows the date "Dec 15, 2016" as plain text.');
    expect(verdict.fix).toContain('datePublished ("2016-12-15")');
    expect(verdict.fix).not.toContain("owner must supply");
  });

  it("asks the owner for the date when the page shows none, and never invents one", () => {
    const verdict = judge(
      publishDate,
      withHead("<title>Tides</title>", "<article><h1>Tides</h1><p>The moon pulls the sea.</p></article>"),
    );
    expect(verdict.fix).toContain('under the h1 "Tides" as <time datetime="YYYY-MM-DD">');
    expect(verdict.fix).toContain("the site's owner must supply it");
    expect(verdict.fix).not.toMatch(/datetime="\d{4}-/);
    // not a real day, or before the web: no date to propose
    const impossible = judge(
      publishDate,
      withHead("", "<article><h1>x</h1><p>February 30, 2024 and 1 May 1980</p></article>"),
    );
    expect(impossible.fix).toContain("must supply it");
  });

  it("takes dateCreated for the publish date only when the page states no other", () => {
    const data = { "@context": "https://schema.org", "@type": "Article", dateCreated: "2019-01-01" };
    const both = judge(
      publishDate,
      withHead(
        jsonLd(data),
        '<article itemscope itemtype="https://schema.org/Article"><h1>x</h1><meta itemprop="datePublished" content="2024-03-04"></article>',
      ),
    );
    expect(both.description).toMatch(/published 2024-03-04 \(<meta datepublished>\)/);
    expect(both.description).not.toContain("2019-01-01 (JSON-LD dateCreated)");
    const alone = judge(publishDate, withHead(jsonLd(data)));
    expect(alone.status).toBe("pass");
    expect(alone.description).toContain("created 2019-01-01 (JSON-LD dateCreated)");
  });
});

describe("publish-date: the date shown above a content with no h1", () => {
  it("reads the date set between an h2 headline and the text, and proposes it", () => {
    const html = withHead(
      "<title>A dating app</title>",
      `<div class="hd"><h2 class="title">A dating app that matches what you hate</h2></div><div class="bd"><div class="author"><span class="name">Xie</span><span class="date">2017-03-01 14:27:02</span></div><div class="detail"><p>${"People always find something to say about the things they hate, and the app knows it. ".repeat(6)}</p><p>${"It offers thousands of topics to judge, from music to food and sleep. ".repeat(6)}</p></div></div>`,
    );
    const verdict = judge(publishDate, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/It shows the date "2017-03-01" as plain text/);
    expect(verdict.fix).toMatch(/<time datetime="2017-03-01">/);
  });

  it("reads the date set right after the byline past a caption and a standfirst, and no other date that far", () => {
    const caption = `<p class="caption">${"A rendering of the proposed stadium by the river, seen from the north bank. ".repeat(3)}</p>`;
    const standfirst = `<h2>${"The athletics department is soliciting bids for a firm to run it ".repeat(2)}</h2>`;
    const text = `<p>${"The university wants its proposed stadium to be a beacon for high-profile events. ".repeat(6)}</p>`;
    const dated = judge(
      publishDate,
      withHead(
        "<title>SDSU wants an operator</title>",
        `<article><h1>SDSU wants an operator</h1>${caption}${standfirst}<div class="byline"><div>By Jennifer Van Grove</div><div>Aug. 27, 2019</div></div>${text}</article>`,
      ),
    );
    expect(dated.description).toMatch(/It shows the date "Aug\. 27, 2019" as plain text/);
    const commit = judge(
      publishDate,
      withHead(
        "<title>SDSU wants an operator</title>",
        `<article><h1>SDSU wants an operator</h1>${caption}${standfirst}<aside>Latest commit on Jul 7, 2020</aside>${text}</article>`,
      ),
    );
    expect(commit.description).not.toMatch(/It shows the date/);
  });
});
