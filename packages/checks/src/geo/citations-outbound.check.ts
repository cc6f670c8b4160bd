import { isContent } from "../aeo/main-dom";
import { defineCheck } from "../check";
import { perPage } from "../lib/memo";
import { contentSentences } from "../lib/own-content";
import { judgesContent } from "../lib/placeholder";
import { quoted } from "../lib/text";
import type { Page } from "../page";
import { ownSites } from "./publisher";
import { siteLabelOf, siteOf } from "./site";
import { statesQuantity } from "./statistics.check";

// words that say a claim rests on a source: a study, data, a report, an announcement
const SOURCED_CLAIM =
  /(?<![\p{L}])(?:stud(?:y|ies)|research|report(?:s|ed)?|survey|data|analysis|poll|figures|statistics|according|announced|published|estimated?|Studie|Umfrage|Bericht|Daten|étude|enquête|rapport|données|sondage|estudio|informe|datos|encuesta)(?![\p{L}])|調査|研究|報告|発表|データ|统计|报告|数据|调查|公布/iu;

/**
 * The claims a fix asks to source, quoted as written: up to two sentences of the content that
 * state a figure or say they rest on a study, report or announcement; else its opening sentence.
 */
const claimsToCite = (page: Page): { claims: string[]; kind: "figures" | "opening" } | null => {
  const sentences = contentSentences(page);
  const claims = sentences.filter((sentence) => statesQuantity(sentence) || SOURCED_CLAIM.test(sentence)).slice(0, 2);
  if (claims.length > 0) return { claims, kind: "figures" };
  const [opening] = sentences;
  return opening ? { claims: [opening], kind: "opening" } : null;
};

const citationsFix = (page: Page, words: number, beside: string): string => {
  const found = claimsToCite(page);
  if (!found)
    return `Cite your sources: link the studies, data and primary documents the claims of these ${words} words rest on, in the text where you use them${beside}.`;
  const claims = found.claims.map((claim) => quoted(claim, 110)).join(" and ");
  return found.kind === "figures"
    ? `Link the source of ${claims} where the text states it: the study, data set, announcement or primary document it comes from${beside}; cite the content's other claims the same way.`
    : `Link the primary source behind the content's opening claim, ${claims}, where the text states it (the document, data or announcement it rests on)${beside}, and cite the claims after it the same way.`;
};

// share and follow buttons inside articles link other domains without citing anything
const SHARE_PATH =
  /^\/(?:intent\/|share|sharer|sharing\/|submit|pin\/create|home\?status|send\?|shareArticle|dialog\/share|_\/share)/i;

// a link to an image, video or sound file shows a medium (a lightbox, a download), it cites nothing
const MEDIA_FILE = /\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|mp4|webm|mov|mp3|ogg|wav)$/i;

/**
 * A link to a profile or page on a social network, not to something said there: the account
 * itself (x.com/jane, facebook.com/somepage, instagram.com/jane, linkedin.com/in/jane or
 * /company/acme, youtube.com/@jane or /channel/…, tiktok.com/@jane, github.com/jane), a hashtag
 * or a search. It names who someone is (an author's "follow me", a blogger's fan page); a post,
 * a video or a repository (x.com/jane/status/1, youtube.com/watch?v=…, github.com/jane/repo) is
 * a source and counts.
 */
export const isSocialProfile = (url: URL): boolean => {
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|mobile)\./, "");
  const segments = url.pathname.split("/").filter(Boolean);
  const [first = "", second] = segments;
  switch (siteOf(host)) {
    case "x.com":
    case "twitter.com":
      return (
        segments.length === 1 ||
        first === "hashtag" ||
        first === "search" ||
        (segments.length === 2 && /^(?:with_replies|media|likes|followers|following)$/.test(second ?? ""))
      );
    case "facebook.com":
    case "fb.com":
      return (
        (segments.length === 1 && !/^(?:watch|story\.php|permalink\.php|photo\.php|photo|events)$/.test(first)) ||
        first === "pages" ||
        first === "people" ||
        (first === "groups" && segments.length <= 2)
      );
    case "instagram.com":
    case "pinterest.com":
    case "threads.net":
    case "github.com":
      return segments.length === 1;
    case "linkedin.com":
      return /^(?:in|company|school|showcase)$/.test(first) && segments.length <= 2;
    case "youtube.com":
      return first.startsWith("@") || /^(?:channel|c|user)$/.test(first);
    case "tiktok.com":
      return segments.length === 1 && first.startsWith("@");
    default:
      return false;
  }
};

export type CitedSites = {
  /** other sites the main content links to, each with one example URL */
  cited: ReadonlyMap<string, string>;
  /** the publisher's own sister sites it links to (same name under another suffix, or named as its own) */
  sisters: ReadonlySet<string>;
  /** social-network profiles it links to, of sites it cites nothing else of ("facebook.com/jane") */
  profiles: ReadonlySet<string>;
};

/** The other sites (registrable domains) the main content links to, and the publisher's own it links to. */
export const citedSites = perPage((page: Page): CitedSites => {
  const own = ownSites(page);
  const cited = new Map<string, string>();
  const sisters = new Set<string>();
  const profileLinks: string[] = [];
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
    if (
      own.labels.has(siteLabelOf(site)) ||
      own.assets.has(site) ||
      own.profiles.some((profile) => href.startsWith(profile))
    ) {
      sisters.add(site);
      continue;
    }
    if (isSocialProfile(url)) {
      profileLinks.push(`${url.hostname.replace(/^www\./, "")}${url.pathname.replace(/\/+$/, "")}`);
      continue;
    }
    if (!cited.has(site)) cited.set(site, url.toString());
  }
  // a profile of a site whose posts are cited is no separate note
  const profiles = new Set(profileLinks.filter((link) => !cited.has(siteOf(link.split("/")[0] ?? ""))));
  return { cited, sisters, profiles };
});

/**
 * Reads the links of the main content (page.ts: never navigation, sidebars, widgets or
 * footers) to other sites (GEO, Aggarwal et al. 2024: citing sources raised visibility in
 * generative answers). Sites are registrable domains under the Public Suffix List, so the
 * publisher's own subdomains are not "other"; neither are its sister sites and profiles
 * (`ownSites`: bbc.co.uk for bbc.com, the host of its canonical URL, its Organization's
 * sameAs accounts, the hosts that serve its share image and icons); each site counts once;
 * share buttons, links to image or video files and social-network profiles cite nothing.
 */
export const citationsOutbound = judgesContent(
  defineCheck({
    id: "citations-outbound",
    category: "geo",
    severity: "info",
    maxScore: 3,
    quick: false,
    title: "Content cites other sources",
    run: (page) => {
      const { cited, sisters, profiles } = citedSites(page);
      const sites = [...cited.keys()];
      const list = `${sites.slice(0, 5).join(", ")}${sites.length > 5 ? ", ..." : ""}`;
      const sisterNote = [
        sisters.size > 0 ? ` Not counted, as the publisher's own: ${[...sisters].slice(0, 3).join(", ")}.` : "",
        profiles.size > 0
          ? ` Not counted, as profiles on social networks, not sources: ${[...profiles].slice(0, 3).join(", ")}${profiles.size > 3 ? " and more" : ""}.`
          : "",
      ].join("");
      const evidence = [...sites, ...sisters, ...profiles];
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
        fix: citationsFix(page, words, sites.length === 1 ? `, beside ${list}` : ""),
        evidence,
      };
    },
  }),
);
