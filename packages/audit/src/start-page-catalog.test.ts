import { type AiCatalogDiscovery, aiCatalogSignals } from "@scan/checks";
import type { PageFacts } from "./page-facts";
import { startPageCatalog } from "./start-page-catalog";

const O = "https://site.example";

const discovered = (robotsTxt: string | null): AiCatalogDiscovery => {
  const signals = aiCatalogSignals({ pageUrl: `${O}/`, html: null, linkHeader: null, robotsTxt });
  const url = signals.robotsTxtAgentmap ?? signals.wellKnown;
  return { signals, catalog: { url, status: 404, contentType: "text/plain", body: "not found", error: null } };
};

const facts = (aiCatalog: PageFacts["aiCatalog"]): PageFacts => ({
  title: "Shop",
  description: null,
  canonical: null,
  hreflang: [],
  links: [],
  noindex: false,
  redirects: [],
  redirectLoop: false,
  ...(aiCatalog ? { aiCatalog } : {}),
});

describe("the catalog once the start page is scanned", () => {
  const none = discovered(null);

  it("fetches the catalog the page's <link> names, which comes before its Link header", () => {
    const found = startPageCatalog(none, facts({ htmlLink: `${O}/agents.json`, httpHeaderLink: `${O}/header.json` }));
    expect(found.fetch).toBe(`${O}/agents.json`);
    expect(found.signals).toEqual({
      ...none.signals,
      htmlLink: `${O}/agents.json`,
      httpHeaderLink: `${O}/header.json`,
    });
  });

  it("fetches the catalog the Link header names when the page has no <link>", () => {
    expect(startPageCatalog(none, facts({ htmlLink: null, httpHeaderLink: `${O}/header.json` })).fetch).toBe(
      `${O}/header.json`,
    );
  });

  it("fetches nothing when robots.txt's Agentmap already chose the catalog, yet records the page's links", () => {
    const agentmap = discovered(`User-agent: *\nAgentmap: ${O}/map.json\n`);
    const found = startPageCatalog(agentmap, facts({ htmlLink: `${O}/agents.json`, httpHeaderLink: null }));
    expect(found.fetch).toBeNull();
    expect(found.signals.robotsTxtAgentmap).toBe(`${O}/map.json`);
    expect(found.signals.htmlLink).toBe(`${O}/agents.json`);
  });

  it("fetches nothing when the page names the well-known catalog discovery fetched, which is then named", () => {
    const found = startPageCatalog(none, facts({ htmlLink: `${O}/.well-known/ai-catalog.json`, httpHeaderLink: null }));
    expect(found.fetch).toBeNull();
    expect(found.signals.htmlLink).toBe(`${O}/.well-known/ai-catalog.json`);
  });

  it("keeps discovery's signals for a start page without facts or with facts stored before the links", () => {
    expect(startPageCatalog(none, null)).toEqual({ signals: none.signals, fetch: null });
    expect(startPageCatalog(none, facts(undefined))).toEqual({ signals: none.signals, fetch: null });
    expect(startPageCatalog(none, facts({ htmlLink: null, httpHeaderLink: null }))).toEqual({
      signals: none.signals,
      fetch: null,
    });
  });
});
