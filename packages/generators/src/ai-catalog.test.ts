import { preparePage, validateAiCatalog } from "@scan/checks";
import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import type { Snapshot } from "@scan/contract";
import { generateAiCatalog, recheckAiCatalog, withAiCatalogLink } from "./ai-catalog";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt, site } from "./fixture-pages";
import { pageFacts } from "./page-facts";

const catalogOf = (snapshot: Snapshot) =>
  generateAiCatalog(pageFacts(preparePage(snapshot, FIXED_SCAN_TIME)), snapshot);

const LLMS = site("/llms.txt", "# Northwind Outfitters\n\n> Trail shoes.\n", 200, "text/markdown");
const SITEMAP = site("/sitemap.xml", '<?xml version="1.0"?><urlset></urlset>', 200, "application/xml");

describe("generateAiCatalog", () => {
  it("names the host as the page names its site and lists the files the site served, valid against the ARD schema", () => {
    const snapshot = pageAt("/shoes/trail-runner-3", PRODUCT_PAGE, { llmsTxt: LLMS, sitemap: SITEMAP });
    const catalog = catalogOf(snapshot);
    expect(JSON.parse(catalog.content)).toEqual({
      specVersion: "1.0",
      host: { displayName: "Northwind Outfitters", logoUrl: `${ORIGIN}/img/northwind-logo.png` },
      entries: [
        {
          identifier: "urn:air:shop.example.com:site:llms-txt",
          displayName: "Northwind Outfitters llms.txt",
          type: "text/markdown",
          url: `${ORIGIN}/llms.txt`,
        },
        {
          identifier: "urn:air:shop.example.com:site:sitemap",
          displayName: "Northwind Outfitters Sitemap",
          type: "application/xml",
          url: `${ORIGIN}/sitemap.xml`,
        },
      ],
    });
    expect(validateAiCatalog(catalog.content).errors).toEqual([]);
    expect(catalog.path).toBe("/.well-known/ai-catalog.json");
    expect(catalog.link).toBe('<link rel="ai-catalog" href="/.well-known/ai-catalog.json">');
    expect(catalog.notes.join(" ")).toMatch(/representativeQueries: the page does not state them/);
  });

  it("lists no file the site did not serve, and says the host name stands in for a site name the page lacks", () => {
    const catalog = catalogOf(
      pageAt("/news/mains", ARTICLE_PAGE.replace(" - City Desk", ""), {
        sitemap: site("/sitemap.xml", "<html>", 200, "text/html"),
      }),
    );
    const data = JSON.parse(catalog.content);
    expect(data.host).toEqual({ displayName: "shop.example.com" });
    expect(data.entries).toEqual([]);
    expect(validateAiCatalog(catalog.content).errors).toEqual([]);
    expect(catalog.notes.join(" ")).toMatch(/does not name its site/);
    expect(catalog.notes.join(" ")).toMatch(/neither llms.txt nor a sitemap/);
  });

  it("serves the catalog where the page already names one on its origin, and adds no second link", () => {
    const html = ARTICLE_PAGE.replace("</head>", '<link rel="ai-catalog" href="/agents/catalog.json"></head>');
    const catalog = catalogOf(pageAt("/news/mains", html));
    expect(catalog.path).toBe("/agents/catalog.json");
    expect(catalog.link).toBeNull();
  });
});

describe("recheckAiCatalog", () => {
  it("runs the site checks on the patched copy: both pass once the page links the generated catalog", () => {
    const snapshot = pageAt("/news/mains", ARTICLE_PAGE, { llmsTxt: LLMS });
    const catalog = catalogOf(snapshot);
    const html = withAiCatalogLink(snapshot.rawHtml, catalog.link ?? "");
    const patched = { ...snapshot, rawHtml: html, renderedHtml: html };
    expect(recheckAiCatalog(patched, catalog).map(({ id, before, after }) => ({ id, before, after }))).toEqual([
      { id: "ai-catalog", before: "skip", after: "pass" },
      { id: "ai-catalog-schema", before: "skip", after: "pass" },
    ]);
  });

  it("fails ai-catalog-schema when the file served is not valid, and ai-catalog when robots.txt names another URL", () => {
    const snapshot = pageAt("/news/mains", ARTICLE_PAGE);
    const catalog = catalogOf(snapshot);
    const invalid = { ...catalog, content: JSON.stringify({ specVersion: "1.0", entries: [{ displayName: "x" }] }) };
    expect(recheckAiCatalog(snapshot, invalid).map((result) => result.after)).toEqual(["pass", "fail"]);
    const elsewhere = {
      ...snapshot,
      robotsTxt: site("/robots.txt", "User-agent: *\nAllow: /\nAgentmap: https://cdn.example.net/catalog.json\n"),
    };
    const [found] = recheckAiCatalog(elsewhere, catalog);
    expect(found).toMatchObject({ id: "ai-catalog", after: "fail" });
    expect(found?.description).toMatch(/cdn\.example\.net/);
  });
});
