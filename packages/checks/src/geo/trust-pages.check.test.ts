import { judge } from "../fixture";
import { trustPages } from "./trust-pages.check";

const page = (body: string) => `<html><head></head><body>${body}</body></html>`;

describe("trust-pages", () => {
  it("passes with about and contact links, in any covered language", () => {
    const verdict = judge(
      trustPages,
      page('<footer><a href="/about-us">About</a> <a href="/kontakt">Kontakt</a></footer>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /about link "About" \(https:\/\/example\.com\/about-us\); contact link "Kontakt" \(https:\/\/example\.com\/kontakt\)/,
    );
    expect(
      judge(trustPages, page('<a href="/fr/a-propos/">À propos</a><a href="/nous-contacter">Nous contacter</a>'))
        .status,
    ).toBe("pass");
  });

  it("warns with one of them, judged by the page's own path segment", () => {
    const verdict = judge(
      trustPages,
      page('<a href="/company/about">Who we are</a><a href="/company/careers">Jobs</a>'),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/links to an about page .* but not to a contact page/);
    expect(verdict.fix).toMatch(/Link your Contact page/);
  });

  it("counts a contact page on another site by its link text, and a mailto with an address", () => {
    const helpDesk = judge(
      trustPages,
      page('<a href="/about">About</a><a href="https://help.example.net/hc">Contact us</a>'),
    );
    expect(helpDesk.status).toBe("pass");
    const share = judge(trustPages, page('<a href="/about">About</a><a href="mailto:?subject=Read%20this">Email</a>'));
    expect(share.status).toBe("warn");
  });

  it("counts a mailto link as contact, but not another site's about page", () => {
    expect(judge(trustPages, page('<a href="/about">About</a><a href="mailto:hi@example.com">Write</a>')).status).toBe(
      "pass",
    );
    const verdict = judge(
      trustPages,
      page('<a href="https://twitter.com/about">About Twitter</a><a href="/pricing">Pricing</a>'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/neither an about page nor a contact page/);
  });

  it("does not take any link mentioning 'about' for an about page", () => {
    expect(judge(trustPages, page('<a href="/blog/post">Learn about pricing</a>')).status).toBe("fail");
    expect(judge(trustPages, page('<a href="/sponsored">About this content</a>')).status).toBe("fail");
    expect(judge(trustPages, page('<a href="/guides/lenses">contact lenses explained</a>')).status).toBe("fail");
    expect(judge(trustPages, page('<a href="/mag/tag/company/">company</a>')).status).toBe("fail");
    expect(judge(trustPages, page('<a href="/the-bbc">About the BBC</a>')).description).toMatch(/about link/);
  });

  it("finds the about page on the publisher's site when the page is served from a mirror host", () => {
    const mirrored = (head: string) =>
      `<html><head>${head}</head><body><a href="https://corporate.acme-news.com/about-us">About us</a><a href="mailto:desk@acme-news.com">Write</a></body></html>`;
    expect(judge(trustPages, mirrored("")).status).toBe("warn");
    for (const head of [
      '<link rel="canonical" href="https://www.acme-news.com/story">',
      '<meta property="og:url" content="https://www.acme-news.com/story">',
      '<script type="application/ld+json">{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"Acme","url":"https://acme-news.com"}}</script>',
    ])
      expect(judge(trustPages, mirrored(head)).status).toBe("pass");
  });

  it("takes 'About' and the publisher's name, and about links in Chinese and Japanese", () => {
    const named = judge(
      trustPages,
      '<html><head><meta property="og:site_name" content="nytimes"></head><body><a href="/corp/x">About nytimes</a><a href="/contact">Contact</a></body></html>',
    );
    expect(named.status).toBe("pass");
    expect(judge(trustPages, page('<a href="/corp/">关于我们</a><a href="/lx/">联系我们</a>')).status).toBe("pass");
    expect(judge(trustPages, page('<a href="/corp/">会社概要</a><a href="/inq/">お問い合わせ</a>')).status).toBe(
      "pass",
    );
  });
});
