import { judge, judgeCorpusPage } from "../fixture";
import { citationsOutbound } from "./citations-outbound.check";

// the page is https://example.com/page
const article = (inner: string, outside = "") =>
  `<html><head><title>t</title></head><body><nav>${outside}</nav><article><h1>Report</h1>${inner}</article></body></html>`;

describe("citations-outbound", () => {
  it("passes when the content links two other sites", () => {
    const verdict = judge(
      citationsOutbound,
      article(
        '<p>See <a href="https://who.int/report">WHO</a> and <a href="https://www.nature.com/x">Nature</a>, and <a href="/about">us</a>.</p>',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2 other sites \(who\.int, nature\.com\)/);
  });

  it("warns with one, not counting the site's own subdomains (by the public suffix list) nor share buttons", () => {
    const verdict = judge(
      citationsOutbound,
      article(
        '<p><a href="https://data.gov.uk/x">data</a> <a href="https://blog.example.com/x">blog</a> <a href="https://www.example.com/y">home</a> <a href="https://twitter.com/intent/tweet?url=x">Tweet</a></p>',
      ),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/one other site \(data\.gov\.uk\)/);
  });

  it("fails with none, and links outside the main content do not count", () => {
    const verdict = judge(
      citationsOutbound,
      article('<p>Only <a href="/pricing">our pricing</a> matters here.</p>', '<a href="https://who.int">WHO</a>'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no other site/);
  });

  it("does not count the publisher's sister sites, its canonical host or its own profiles as outside sources", () => {
    const head = `<link rel="canonical" href="https://www.dailynews.com/story"><script type="application/ld+json">${JSON.stringify(
      {
        "@context": "https://schema.org",
        "@type": "NewsMediaOrganization",
        name: "News",
        url: "https://www.dailynews.com/",
        sameAs: ["https://twitter.com/dailynews"],
      },
    )}</script>`;
    const body = `<article><h1>Report</h1><p><a href="https://www.dailynews.co.uk/x">our UK edition</a>,
      <a href="https://twitter.com/dailynews/status/1">our post</a>, <a href="https://www.who.int/r">WHO</a>, <a href="https://cdn.other.example/photo.jpg">photo</a>.</p></article>`;
    const verdict = judge(citationsOutbound, `<html><head><title>t</title>${head}</head><body>${body}</body></html>`);
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/one other site \(who\.int\)/);
    expect(verdict.description).toMatch(/Not counted, as the publisher's own: dailynews\.co\.uk, twitter\.com\./);
  });

  it("bbc-1: bbc.co.uk is the BBC's own site, not a source it cites", () => {
    const verdict = judgeCorpusPage(citationsOutbound, "bbc-1");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/Not counted, as the publisher's own: bbc\.co\.uk\./);
  });

  it("dropbox-blog: dropbox.com is the sister site of dropbox.tech, which publishes the page", () => {
    const verdict = judgeCorpusPage(citationsOutbound, "dropbox-blog");
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(
      /link to one other site \(amazon\.com\).*Not counted, as the publisher's own: dropbox\.com\./,
    );
  });
});
