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

  it("counts no social-network profile, hashtag or channel as a source, and counts a post, a video or a repository", () => {
    const profiles = judge(
      citationsOutbound,
      article(
        '<p>Follow <a href="https://x.com/jane">@jane</a>, <a href="https://www.facebook.com/janespage">my page</a>, <a href="https://www.linkedin.com/company/acme/">Acme</a>, <a href="https://www.youtube.com/@jane">my channel</a>, <a href="https://instagram.com/jane/">Instagram</a>, <a href="https://twitter.com/hashtag/news">#news</a> and <a href="https://github.com/jane">GitHub</a>.</p>',
      ),
    );
    expect(profiles.status).toBe("fail");
    expect(profiles.description).toMatch(
      /Not counted, as profiles on social networks, not sources: x\.com\/jane, facebook\.com\/janespage, linkedin\.com\/company\/acme and more\.$/,
    );
    const posts = judge(
      citationsOutbound,
      article(
        '<p>She <a href="https://x.com/jane/status/123">said so</a>, <a href="https://www.youtube.com/watch?v=abc">on video</a>, in <a href="https://github.com/jane/tool">her tool</a>; see <a href="https://x.com/jane">@jane</a>.</p>',
      ),
    );
    expect(posts.description).toBe("The main content links to 3 other sites (x.com, youtube.com, github.com).");
  });

  it("does not count the hosts of the page's share image and icons, the publisher's own assets", () => {
    const html = `<html><head><title>t</title><meta property="og:image" content="https://i.pubcdn.net/share.jpg"><link rel="icon" href="https://static.pubassets.org/favicon.ico"></head><body><article><h1>Report</h1><p>See <a href="https://interactive.pubcdn.net/map/">the map</a>, <a href="https://static.pubassets.org/x">this</a> and <a href="https://who.int/report">WHO</a>.</p></article></body></html>`;
    const verdict = judge(citationsOutbound, html);
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(
      /one other site \(who\.int\).*Not counted, as the publisher's own: pubcdn\.net, pubassets\.org\.$/,
    );
  });

  it("pixnet, guardian-1: a blogger's own fan page and the Guardian's interactive host are cited sources of neither", () => {
    const pixnet = judgeCorpusPage(citationsOutbound, "pixnet");
    expect(pixnet.status).toBe("warn");
    expect(pixnet.description).toMatch(
      /one other site \(yahoo\.com\).*Not counted, as profiles on social networks, not sources: facebook\.com\/stevenhgm1188\.$/,
    );
    const guardian = judgeCorpusPage(citationsOutbound, "guardian-1");
    expect(guardian.description).toBe(
      "The main content links to 2 other sites (radionz.co.nz, stuff.co.nz). Not counted, as the publisher's own: guim.co.uk.",
    );
  });
});

describe("citations-outbound: the claims to source", () => {
  it("names the sentences that state a figure or a finding", () => {
    const verdict = judge(
      citationsOutbound,
      article(
        "<p>The plan was announced on Monday by the city council.</p><p>The stadium will seat 35,000 people when it opens.</p>",
      ),
    );
    expect(verdict.fix).toMatch(
      /^Link the source of “The plan was announced on Monday by the city council\.” and “The stadium will seat 35,000 people when it opens\.”/,
    );
  });
});
