import { ARTICLE_TYPES } from "../aeo/article-schema.check";
import { isContent } from "../aeo/main-dom";
import { isOrganization } from "../aeo/organization-schema.check";
import { defineCheck } from "../check";
import { jsonLd, textOf, typesOf } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import type { Page } from "../page";
import { linkRefs, metaKeyed } from "../seo/head";
import { siteLabelOf, siteOf } from "./site";

// share and follow buttons inside articles link other domains without citing anything
const SHARE_PATH =
  /^\/(?:intent\/|share|sharer|sharing\/|submit|pin\/create|home\?status|send\?|shareArticle|dialog\/share|_\/share)/i;

// a link to an image, video or sound file shows a medium (a lightbox, a download), it cites nothing
const MEDIA_FILE = /\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|mp4|webm|mov|mp3|ogg|wav)$/i;

const hostOf = (raw: string | null | undefined, base: URL): string | null => {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.hostname : null;
  } catch {
    return null;
  }
};

/**
 * The publisher's own sites, and the profiles it names as its own: the final URL's site; the
 * sites of its canonical URL, og:url and the url of its WebSite, WebPage, Article and
 * Organization JSON-LD (a page served from a mirror, a CDN host or a staging copy still belongs
 * to them); and the sameAs profiles of its Organization (its own accounts are no outside
 * source). A sister site shares the registrable name under another suffix (bbc.com,
 * bbc.co.uk) and is the publisher's too.
 */
export const ownSites = perPage((page: Page): { sites: Set<string>; labels: Set<string>; profiles: string[] } => {
  const hosts = [page.finalUrl.hostname];
  const base = page.finalUrl;
  hosts.push(
    ...linkRefs(page)
      .filter((ref) => ref.source === "head" && ref.rels.includes("canonical"))
      .map((ref) => hostOf(ref.hrefRaw, base) ?? ""),
  );
  hosts.push(hostOf(metaKeyed(page, "og:url")?.getAttribute("content"), base) ?? "");
  const profiles: string[] = [];
  for (const node of [...jsonLd(page).nodes, ...jsonLd(page).unreadableNodes]) {
    const types = typesOf(node);
    if (!types.some((type) => OWNER_TYPES.has(type)) && !isOrganization(node)) continue;
    hosts.push(hostOf(textOf(node.url), base) ?? "");
    if (isOrganization(node)) {
      for (const value of Array.isArray(node.sameAs) ? node.sameAs : [node.sameAs]) {
        if (typeof value === "string" && /^https?:\/\//i.test(value))
          profiles.push(value.replace(/\/+$/, "").toLowerCase());
      }
    }
  }
  const sites = new Set(hosts.filter((host) => host !== "").map(siteOf));
  return { sites, labels: new Set([...sites].map(siteLabelOf)), profiles };
});

const OWNER_TYPES = new Set(["WebSite", "WebPage", ...ARTICLE_TYPES]);

export type CitedSites = {
  /** other sites the main content links to, each with one example URL */
  cited: ReadonlyMap<string, string>;
  /** the publisher's own sister sites it links to (same name under another suffix, or named as its own) */
  sisters: ReadonlySet<string>;
};

/** The other sites (registrable domains) the main content links to, and the publisher's own it links to. */
export const citedSites = perPage((page: Page): CitedSites => {
  const own = ownSites(page);
  const cited = new Map<string, string>();
  const sisters = new Set<string>();
  for (const anchor of page.main.root.querySelectorAll("a[href]")) {
    if (!isContent(page, anchor)) continue;
    let url: URL;
    try {
      url = new URL((anchor.getAttribute("href") ?? "").trim(), page.finalUrl);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    if (SHARE_PATH.test(`${url.pathname}${url.search}`) || MEDIA_FILE.test(url.pathname)) continue;
    const site = siteOf(url.hostname);
    if (own.sites.has(site)) continue;
    const href = url.href.replace(/\/+$/, "").toLowerCase();
    if (own.labels.has(siteLabelOf(site)) || own.profiles.some((profile) => href.startsWith(profile))) {
      sisters.add(site);
      continue;
    }
    if (!cited.has(site)) cited.set(site, url.toString());
  }
  return { cited, sisters };
});

/**
 * Reads the links of the main content (page.ts: never navigation, sidebars, widgets or
 * footers) to other sites (GEO, Aggarwal et al. 2024: citing sources raised visibility in
 * generative answers). Sites are registrable domains under the Public Suffix List, so the
 * publisher's own subdomains are not "other"; neither are its sister sites and profiles
 * (`ownSites`: bbc.co.uk for bbc.com, the host of its canonical URL, its Organization's
 * sameAs accounts); each site counts once; share buttons and links to image or video files
 * cite nothing.
 */
export const citationsOutbound = defineCheck({
  id: "citations-outbound",
  category: "geo",
  severity: "info",
  maxScore: 3,
  quick: false,
  title: "Content cites other sources",
  run: (page) => {
    const { cited, sisters } = citedSites(page);
    const sites = [...cited.keys()];
    const list = `${sites.slice(0, 5).join(", ")}${sites.length > 5 ? ", ..." : ""}`;
    const sisterNote =
      sisters.size > 0 ? ` Not counted, as the publisher's own: ${[...sisters].slice(0, 3).join(", ")}.` : "";
    const evidence = [...sites, ...sisters];
    if (sites.length >= 2)
      return {
        status: "pass",
        description: `The main content links to ${sites.length} other sites (${list}).${sisterNote}`,
        evidence,
      };
    const words = page.main.words;
    return {
      status: sites.length === 1 ? "warn" : "fail",
      description:
        sites.length === 1
          ? `The main content's ${words} words link to one other site (${list}); citing sources is a heuristic signal for AI answers.${sisterNote}`
          : `The main content's ${words} words link to no other site; citing sources is a heuristic signal for AI answers.${sisterNote}`,
      fix: `Cite your sources: link the studies, data and primary documents the claims of these ${words} words rest on, in the text where you use them${sites.length === 1 ? `, beside ${list}` : ""}.`,
      evidence,
    };
  },
});
