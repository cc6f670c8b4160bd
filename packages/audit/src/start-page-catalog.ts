import { type AiCatalogDiscovery, type AiCatalogSignals, aiCatalogUrl } from "@scan/checks";
import type { PageFacts } from "./page-facts";

/** The catalog's signals once the start page is scanned, and the catalog URL still to fetch, if any. */
export type StartPageCatalog = {
  signals: AiCatalogSignals;
  /** the URL the signals now name, when discovery fetched another; null when its catalog stands */
  fetch: string | null;
};

/**
 * Discovery fetches no page, so it looks for the catalog by robots.txt's `Agentmap:` and the
 * well-known path alone. The start page's facts add its `<link rel="ai-catalog">` and `Link`
 * header; the URL is chosen again in Lighthouse 13.5's order (`aiCatalogUrl`), and only a URL
 * other than the one discovery fetched needs fetching. Facts without those links (a page that
 * failed, or facts stored before they were read) leave discovery's signals as they are.
 */
export const startPageCatalog = (discovered: AiCatalogDiscovery, facts: PageFacts | null): StartPageCatalog => {
  if (!facts?.aiCatalog) return { signals: discovered.signals, fetch: null };
  const signals: AiCatalogSignals = {
    ...discovered.signals,
    htmlLink: facts.aiCatalog.htmlLink,
    httpHeaderLink: facts.aiCatalog.httpHeaderLink,
  };
  const url = aiCatalogUrl(signals);
  return { signals, fetch: url === aiCatalogUrl(discovered.signals) ? null : url };
};
