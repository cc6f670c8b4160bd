import { clipAtWord, preparePage } from "@scan/checks";
import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt } from "./fixture-pages";
import { pageFacts } from "./page-facts";

const factsOf = (html: string, path = "/page") => pageFacts(preparePage(pageAt(path, html), FIXED_SCAN_TIME));
const head = (inner: string, body = "<p>Text</p>") =>
  `<!doctype html><html><head>${inner}</head><body>${body}</body></html>`;

describe("pageFacts", () => {
  it("reads a product page's metadata, links and breadcrumbs", () => {
    const facts = factsOf(PRODUCT_PAGE, "/shoes/trail-runner-3?ref=home");
    expect(facts).toMatchObject({
      url: `${ORIGIN}/shoes/trail-runner-3`,
      origin: ORIGIN,
      home: `${ORIGIN}/`,
      site: "example.com",
      host: "shop.example.com",
      siteName: { value: "Northwind Outfitters", source: "og:site_name" },
      title: "Trail Runner 3 shoes | Northwind Outfitters",
      h1: "Trail Runner 3",
      ogTitle: "Trail Runner 3",
      description: { source: "meta description" },
      lang: "en",
      image: `${ORIGIN}/img/trail-runner-3.jpg`,
      logo: { value: `${ORIGIN}/img/northwind-logo.png`, source: "logo <img>" },
      author: null,
      published: null,
      intro: "The Trail Runner 3 is our lightest trail shoe yet, built for long runs on rough and muddy ground.",
    });
    // other sites (twitter.com) are left out; a URL is listed once, in the first section that has it
    expect(facts.links).toEqual({
      nav: [
        { text: "Shoes", url: `${ORIGIN}/shoes` },
        { text: "Jackets", url: `${ORIGIN}/jackets` },
        { text: "About us", url: `${ORIGIN}/about` },
        // the breadcrumb trail is a <nav> too; the logo link has no text
        { text: "Home", url: `${ORIGIN}/` },
      ],
      content: [{ text: "repair service", url: `${ORIGIN}/repairs` }],
      footer: [
        { text: "Privacy", url: `${ORIGIN}/privacy` },
        { text: "Contact", url: `${ORIGIN}/contact` },
      ],
    });
    expect(facts.breadcrumbs).toEqual([
      { text: "Home", url: `${ORIGIN}/` },
      { text: "Shoes", url: `${ORIGIN}/shoes` },
    ]);
  });

  it("reads an article's author and date as written", () => {
    const facts = factsOf(ARTICLE_PAGE);
    expect(facts.author).toEqual({ name: "Jane Doe", url: null, source: "<meta author>" });
    expect(facts.published).toEqual({ value: "2026-01-15T08:00:00+00:00", source: "<meta article:published_time>" });
    expect(facts.ogType).toBe("article");
    // "Why winter breaks water mains - City Desk": the page declares no name, its title ends with one
    expect(facts.siteName).toEqual({ value: "City Desk", source: "the end of its <title>" });
  });

  it.each([
    [
      head('<script type="application/ld+json">{"@type":"WebSite","name":"Site A"}</script>'),
      "Site A",
      "JSON-LD WebSite name",
    ],
    [head('<meta name="application-name" content="App B">'), "App B", "application-name"],
    [
      head(
        '<script type="application/ld+json">{"@type":"Organization","name":"Org C","url":"https://www.example.com/"}</script>',
      ),
      "Org C",
      "JSON-LD Organization name",
    ],
    [head("<title>Page | Brand D</title>"), null, null],
    [
      head(
        '<script type="application/ld+json">{"@type":"Organization","name":"Wire Agency","url":"https://agency.net/"}</script>',
      ),
      null,
      null,
    ],
  ])("finds the site name from its own sources only (%#)", (html, value, source) => {
    const facts = factsOf(html);
    expect(facts.siteName).toEqual(value === null ? null : { value, source });
  });

  it.each([
    [
      head(
        '<script type="application/ld+json">{"@type":"Organization","logo":{"@type":"ImageObject","url":"/l.png"}}</script>',
      ),
      `${ORIGIN}/l.png`,
    ],
    [head("", '<header><img src="/brand/logo.svg" alt=""></header>'), `${ORIGIN}/brand/logo.svg`],
    [head("", '<a href="https://shop.example.com/"><img src="/x.png" class="site-logo"></a>'), `${ORIGIN}/x.png`],
    [head('<link rel="apple-touch-icon" href="/touch.png">'), `${ORIGIN}/touch.png`],
    // a "logo" image in the content (a partner's) is no logo of the site
    [head("", '<main><img src="/partner-logo.png" alt="Partner logo"></main>'), null],
    [head('<link rel="icon" href="/favicon.ico">'), null],
  ])("finds the logo from its own sources only (%#)", (html, logo) => {
    expect(factsOf(html).logo?.value ?? null).toBe(logo);
  });

  it("names a rel=author link's text and page", () => {
    const facts = factsOf(head("", '<p>By <a rel="author" href="/team/sam">Sam Roe</a></p>'));
    expect(facts.author).toEqual({ name: "Sam Roe", url: `${ORIGIN}/team/sam`, source: 'rel="author" link' });
  });

  it("keeps the final URL when the canonical points at another site", () => {
    const facts = factsOf(head('<link rel="canonical" href="https://other.org/x">'), "/page#top");
    expect(facts.url).toBe(`${ORIGIN}/page`);
  });

  it("ignores dates that are not ISO 8601", () => {
    const facts = factsOf(head('<meta property="article:published_time" content="May 6, 2025">'));
    expect(facts.published).toBeNull();
  });
});

describe("clipAtWord", () => {
  it.each([
    ["short", 10, "short"],
    ["one two three four", 10, "one two"],
    ["abcdefghijklmnop", 5, "abcde"],
    ["one two, three", 8, "one two"],
  ])("%j to %i → %j", (text, max, expected) => {
    expect(clipAtWord(text, max)).toBe(expected);
  });
});
