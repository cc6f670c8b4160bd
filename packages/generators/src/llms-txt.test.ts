import { llmsTxt, llmsTxtFormat, preparePage } from "@scan/checks";
import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt, site } from "./fixture-pages";
import { generateLlmsTxt } from "./llms-txt";
import { pageFacts } from "./page-facts";

const generated = (html: string, path = "/page") =>
  generateLlmsTxt(pageFacts(preparePage(pageAt(path, html), FIXED_SCAN_TIME)));

const served = (html: string, body: string) =>
  preparePage(
    pageAt("/page", html, { llmsTxt: site("/llms.txt", body, 200, "text/markdown; charset=utf-8") }),
    FIXED_SCAN_TIME,
  );

describe("generateLlmsTxt", () => {
  it("names the site by its JSON-LD before og:site_name, and the host only when nothing names it", () => {
    const ld = (node: string) => `<script type="application/ld+json">${node}</script>`;
    const page = (head: string) =>
      `<html><head><title>Tide tables | Coast Notes</title>${head}</head><body><main><p>Tides rise twice a day.</p></main></body></html>`;
    const og = '<meta property="og:site_name" content="coastnotes-prod">';
    expect(generated(page(`${og}${ld('{"@type":"WebSite","name":"Coast Notes"}')}`)).content).toMatch(
      /^# Coast Notes\n/,
    );
    expect(
      generated(page(`${og}${ld(`{"@type":"Organization","name":"Coast Notes Ltd","url":"${ORIGIN}/"}`)}`)).content,
    ).toMatch(/^# Coast Notes Ltd\n/);
    expect(generated(page(og)).content).toMatch(/^# coastnotes-prod\n/);
    const bare = generated(page(""));
    expect(bare.content).toMatch(new RegExp(`^# ${new URL(ORIGIN).host.replace(/\./g, "\\.")}\\n`));
    expect(bare.notes[0]).toMatch(/does not name its site/);
    const titled = generated(
      `<html><head><title>Tide tables for the coming week | Coast Notes</title></head><body><main><p>Tides rise twice a day.</p></main></body></html>`,
    );
    expect(titled.content).toMatch(/^# Coast Notes\n/);
    expect(titled.notes).toContain(
      "The H1 \"Coast Notes\" is read from the end of the page's <title>: check that it is the site's name, and declare it as og:site_name or a WebSite's name in JSON-LD.",
    );
  });

  it("leaves out a link whose text is zero-width or whitespace characters alone", () => {
    const html = `<html><head><title>T</title></head><body><nav><a href="/a">\u200b\u200c</a><a href="/b"> \u2060\ufeff </a><a href="/c">Real\u200b page</a></nav><main><p>Text of the page.</p></main></body></html>`;
    const out = generated(html);
    expect(out.content).not.toMatch(/\(https?:[^)]*\/a\)|\/b\)/);
    expect(out.content).toContain(`- [Real page](${ORIGIN}/c)`);
    expect(out.content).not.toMatch(/[\u200b\u200c\u2060\ufeff]/);
  });

  it("writes the llmstxt.org outline from the page's name, summary and links", () => {
    const out = generated(PRODUCT_PAGE, "/shoes/trail-runner-3");
    expect(out.content).toBe(`# Northwind Outfitters

> The Trail Runner 3 is a light trail shoe with a grippy sole, made for long runs on rough ground.

## Navigation

- [Shoes](${ORIGIN}/shoes)
- [Jackets](${ORIGIN}/jackets)
- [About us](${ORIGIN}/about)
- [Home](${ORIGIN}/)

## This page

- [Trail Runner 3 shoes | Northwind Outfitters](${ORIGIN}/shoes/trail-runner-3): The Trail Runner 3 is a light trail shoe with a grippy sole, made for long runs on rough ground.
- [repair service](${ORIGIN}/repairs)

## Optional

- [Privacy](${ORIGIN}/privacy)
- [Contact](${ORIGIN}/contact)
`);
    expect(out).toMatchObject({ path: "/llms.txt", addresses: ["llms-txt", "llms-txt-format"], notes: [] });
  });

  it("falls back to the host name and lists the page alone when there is nothing else", () => {
    // a title that ends with no site's name: "Why winter breaks water mains"
    const out = generated(ARTICLE_PAGE.replace(" - City Desk", ""));
    expect(out.content).toBe(`# shop.example.com

> Freeze-thaw cycles crack old pipes; here is how the city keeps up.

## This page

- [Why winter breaks water mains](${ORIGIN}/page): Freeze-thaw cycles crack old pipes; here is how the city keeps up.
`);
    expect(out.notes).toHaveLength(2);
  });

  it("keeps labels and URLs from breaking the markdown links", () => {
    const html = `<html><head><title>[Draft] Notes (v2)</title><meta property="og:site_name" content="Site"></head>
<body><nav><a href="/a (b)">[Archive]</a></nav><p>Text of the page.</p></body></html>`;
    const out = generated(html);
    expect(out.content).toContain(`- [(Archive)](${ORIGIN}/a%20%28b%29)`);
    expect(out.content).toContain(`- [(Draft) Notes (v2)](${ORIGIN}/page)`);
  });

  it.each([
    ["a product page", PRODUCT_PAGE],
    ["an article", ARTICLE_PAGE],
    ["an empty page", ""],
    ["a page of bare text", "Just a line of text"],
  ])("passes llms-txt and llms-txt-format for %s", (_name, html) => {
    const body = generated(html).content;
    const page = served(html, body);
    expect(llmsTxt.run(page).status).toBe("pass");
    expect(llmsTxtFormat.run(page).status).toBe("pass");
  });
});
