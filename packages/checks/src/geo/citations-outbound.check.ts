import { isContent } from "../aeo/main-dom";
import { defineCheck } from "../check";
import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { siteOf } from "./site";

// share and follow buttons inside articles link other domains without citing anything
const SHARE_PATH =
  /^\/(?:intent\/|share|sharer|sharing\/|submit|pin\/create|home\?status|send\?|shareArticle|dialog\/share|_\/share)/i;

/** The other sites (registrable domains) the main content links to, each with one example URL. */
export const citedSites = perPage((page: Page): ReadonlyMap<string, string> => {
  const own = siteOf(page.finalUrl.hostname);
  const sites = new Map<string, string>();
  for (const anchor of page.main.root.querySelectorAll("a[href]")) {
    if (!isContent(page, anchor)) continue;
    let url: URL;
    try {
      url = new URL((anchor.getAttribute("href") ?? "").trim(), page.finalUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    if (SHARE_PATH.test(`${url.pathname}${url.search}`)) continue;
    const site = siteOf(url.hostname);
    if (site !== own && !sites.has(site)) sites.set(site, url.toString());
  }
  return sites;
});

/**
 * Links from the main content to other sites (GEO, Aggarwal et al. 2024: citing sources raised
 * visibility in generative answers). Sites are registrable domains under the Public Suffix
 * List, so the publisher's own subdomains are not "other"; each site counts once; share
 * buttons are not citations. Links in navigation, sidebars and footers are outside the main
 * content and do not count.
 */
export const citationsOutbound = defineCheck({
  id: "citations-outbound",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Content cites other sources",
  run: (page) => {
    const sites = [...citedSites(page).keys()];
    const list = `${sites.slice(0, 5).join(", ")}${sites.length > 5 ? ", ..." : ""}`;
    if (sites.length >= 2)
      return { status: "pass", description: `The main content links to ${sites.length} other sites (${list}).` };
    return {
      status: sites.length === 1 ? "warn" : "fail",
      description:
        sites.length === 1
          ? `The main content links to one other site (${list}); citing sources is a heuristic signal for AI answers.`
          : "The main content links to no other site; citing sources is a heuristic signal for AI answers.",
      fix: "Cite your sources: link the studies, data and primary documents your claims rest on, in the text where you use them.",
    };
  },
});
