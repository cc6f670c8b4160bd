import { judge, judgeCorpusPage } from "../fixture";
import { freshness } from "./freshness.check";

// FIXED_SCAN_TIME is 2026-06-01T12:00Z
const withHead = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;

describe("freshness", () => {
  it("passes within 12 months of the scan", () => {
    const verdict = judge(freshness, withHead('<meta property="article:modified_time" content="2026-05-15">'));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2026-05-15 \(<meta article:modified_time>\), 17 days before the scan/);
  });

  it("warns at 12 to 24 months, judging the newest date", () => {
    const verdict = judge(
      freshness,
      withHead("", '<time datetime="2023-01-01"></time><time datetime="2025-01-10"></time>'),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/2025-01-10 .* 16 months before/);
  });

  it("fails when older than 24 months", () => {
    const verdict = judge(freshness, withHead("", '<time datetime="2020-01-01"></time>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/2020-01-01 \(<time datetime>\), 6 years before the scan/);
    // never the fake freshness of a date moved alone: update the content, then the date
    expect(verdict.fix).toMatch(/if facts have changed since 2020-01-01, update the content, then set dateModified/);
    expect(verdict.fix).toMatch(/Do not change the date without changing the content/);
    expect(verdict.fix).not.toMatch(/review date/);
  });

  it("ignores future dates, saying so, and skips without a date", () => {
    const future = judge(freshness, withHead("", '<time datetime="2030-01-01"></time>'));
    expect(future.status).toBe("skip");
    expect(future.description).toMatch(/ignored \(2030-01-01 in <time datetime>\)/);
    const older = judge(
      freshness,
      withHead("", '<time datetime="2030-01-01"></time><time datetime="2020-01-01"></time>'),
    );
    expect(older.status).toBe("fail");
    expect(judge(freshness, withHead("")).status).toBe("skip");
  });

  it("reads the page's own dates: a sidebar's newer <time> is not the page's", () => {
    const html = `<html><head><title>Rates rise</title></head><body><article><h1>Rates rise</h1><time datetime="2020-01-01">1 Jan 2020</time><p>The bank raised its rates again today.</p></article>
      <aside><ul><li><a href="/other">Another story</a> <time datetime="2026-05-20">20 May</time></li></ul></aside></body></html>`;
    const verdict = judge(freshness, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/^The page's newest date is 2020-01-01 \(<time datetime>\)/);
    expect(verdict.description).toMatch(
      /Not counted, as not the page's own: 1 <time> date .* \(the newest 2026-05-20\)/,
    );
  });

  it("passes a dated news report whatever its age: its date says when it was news", () => {
    const data = { "@context": "https://schema.org", "@type": "NewsArticle", datePublished: "2015-07-24" };
    const verdict = judge(freshness, withHead(`<script type="application/ld+json">${JSON.stringify(data)}</script>`));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /^A dated news report \(its JSON-LD declares a NewsArticle\), published 2015-07-24/,
    );
  });

  it("bbc-1: a dated BBC News report passes", () => {
    const verdict = judgeCorpusPage(freshness, "bbc-1");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /^A dated news report \(it is an og:type article of "BBC News"\), published 2015-07-24/,
    );
  });

  it("theverge: the sidebar's newest <time> (2023-06-24) is not the page's date", () => {
    const verdict = judgeCorpusPage(freshness, "theverge");
    expect(verdict.description).toMatch(/published 2023-06-07/);
    expect(verdict.description).toMatch(
      /Not counted, as not the page's own: 4 <time> dates .* \(the newest 2023-06-24\)/,
    );
  });

  it.each([
    [
      "nytimes-1",
      /^A dated news report \(its microdata declares a NewsArticle\), published 2017-01-13 \(<meta datepublished>\)/,
    ],
    ["nytimes-4", /^A dated news report \(.*\), published 2018-09-25 \(<meta datepublished>\)/],
    ["msn", /^A dated news report \(its microdata declares a NewsArticle\), dated 2016-11-15 \(<time datetime>\)/],
  ])("%s: a dated news report passes, its date read from microdata or its dateline", (name, description) => {
    const verdict = judgeCorpusPage(freshness, name);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(description);
  });

  it("never advises moving a date alone on an old page that is no news report", () => {
    const verdict = judgeCorpusPage(freshness, "v8-blog");
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(
      /^Review what the page says against today: if facts have changed since 2019-11-21, update the content, then set dateModified/,
    );
    expect(verdict.fix).toMatch(/Do not change the date without changing the content/);
    expect(verdict.fix).not.toMatch(/to the review date/);
  });
});
