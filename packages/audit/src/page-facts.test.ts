import { aiCatalogSignals } from "@scan/checks";
import { FIXED_SCAN_TIME, snapshotOf } from "@scan/checks/testing";
import { factsOf, PageFacts } from "./page-facts";

const PAGE = "https://site.example/shop/";

const catalogOf = (head: string, link: string | null = null, body = "") =>
  factsOf(
    snapshotOf(`<!doctype html><html><head><title>Shop</title>${head}</head><body>${body}</body></html>`, {
      requestedUrl: PAGE,
      finalUrl: PAGE,
      headers: { "content-type": "text/html", ...(link === null ? {} : { link }) },
    }),
    FIXED_SCAN_TIME,
  ).aiCatalog;

describe("a page's ai-catalog links in its facts", () => {
  it("reads the <link rel=ai-catalog> href and the Link header's target, absolute against the page", () => {
    expect(
      catalogOf(
        '<link rel="stylesheet" href="/s.css"><link rel="ai-catalog" href="../agents.json">',
        '</a.css>; rel="preload", <catalog/ai.json>; rel="ai-catalog"',
      ),
    ).toEqual({
      htmlLink: "https://site.example/agents.json",
      httpHeaderLink: "https://site.example/shop/catalog/ai.json",
    });
  });

  it("names nothing when the page has neither", () => {
    expect(catalogOf('<link rel="canonical" href="/shop/">', '</shop/>; rel="canonical"')).toEqual({
      htmlLink: null,
      httpHeaderLink: null,
    });
  });

  it("takes the first link of each source, rel tokens in any case, a body link too", () => {
    expect(
      catalogOf(
        "",
        '</one.json>; rel="AI-Catalog alternate", </two.json>; rel="ai-catalog"',
        '<link rel="ai-catalog" href="/body.json"><link rel="ai-catalog" href="/later.json">',
      ),
    ).toEqual({ htmlLink: "https://site.example/body.json", httpHeaderLink: "https://site.example/one.json" });
  });

  it("reads what aiCatalogSignals reads from the same page, an empty first href naming nothing", () => {
    const cases: Array<[string, string | null]> = [
      ['<link rel="ai-catalog" href=""><link rel="ai-catalog" href="/second.json">', null],
      ['<link rel="alternate ai-catalog" href="https://elsewhere.example/c.json">', "<>; rel=ai-catalog"],
      ['<link rel="ai-catalog" href="/x.json">', "not a link header"],
    ];
    for (const [head, link] of cases) {
      const html = `<!doctype html><html><head>${head}</head><body></body></html>`;
      const signals = aiCatalogSignals({ pageUrl: PAGE, html, linkHeader: link, robotsTxt: null });
      expect(catalogOf(head, link)).toEqual({ htmlLink: signals.htmlLink, httpHeaderLink: signals.httpHeaderLink });
    }
  });

  it("parses stored facts that predate the links", () => {
    const { aiCatalog: _, ...stored } = factsOf(snapshotOf("<title>Old</title>"), FIXED_SCAN_TIME);
    expect(PageFacts.parse(stored).aiCatalog).toBeUndefined();
  });
});
