import { ARTICLE_TYPES } from "../aeo/article-schema.check";
import { jsonLd, textOf, typesOf } from "../lib/jsonld";
import { perPage } from "../lib/memo";
import { isOrganization } from "../lib/organization";
import type { Page } from "../page";
import { linkRefs, metaKeyed } from "../seo/head";
import { siteLabelOf, siteOf } from "./site";

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
 * to them); the hosts of its share image (og:image, twitter:image) and icons (rel=icon,
 * apple-touch-icon, manifest): the publisher's own asset hosts (the Guardian's guim.co.uk, the
 * BBC's bbci.co.uk), or an image host that cites nothing; and the sameAs profiles of its
 * Organization (its own accounts are no outside source). A sister site shares the registrable
 * name under another suffix (bbc.com, bbc.co.uk) and is the publisher's too.
 */
export const ownSites = perPage(
  (page: Page): { sites: Set<string>; labels: Set<string>; assets: Set<string>; profiles: string[] } => {
    const hosts = [page.finalUrl.hostname];
    const base = page.finalUrl;
    hosts.push(
      ...linkRefs(page)
        .filter((ref) => ref.source === "head" && ref.rels.includes("canonical"))
        .map((ref) => hostOf(ref.hrefRaw, base) ?? ""),
    );
    hosts.push(hostOf(metaKeyed(page, "og:url")?.getAttribute("content"), base) ?? "");
    const assets = [
      ...ASSET_METAS.map((key) => hostOf(metaKeyed(page, key)?.getAttribute("content"), base) ?? ""),
      ...linkRefs(page)
        .filter((ref) => ref.source === "head" && ref.rels.some((rel) => ASSET_RELS.has(rel)))
        .map((ref) => hostOf(ref.hrefRaw, base) ?? ""),
    ];
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
    // asset hosts are the publisher's, but name no sister site: their label is no brand
    const assetSites = new Set(assets.filter((host) => host !== "").map(siteOf));
    return { sites, labels: new Set([...sites].map(siteLabelOf)), assets: assetSites, profiles };
  },
);

const OWNER_TYPES = new Set(["WebSite", "WebPage", ...ARTICLE_TYPES]);
const ASSET_METAS = ["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"];
const ASSET_RELS = new Set(["icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "manifest"]);

/**
 * The names the publisher goes by, lower-cased: the name of its Organization and WebSite
 * JSON-LD, its og:site_name and the labels of its own sites ("bbc" for bbc.co.uk). "About
 * Acme" is an about page when Acme is one of them, however it is written ("About nytimes").
 */
export const publisherNames = perPage((page: Page): ReadonlySet<string> => {
  const names = new Set<string>(ownSites(page).labels);
  for (const node of jsonLd(page).nodes) {
    if (!isOrganization(node) && !typesOf(node).includes("WebSite")) continue;
    const name = textOf(node.name);
    if (name) names.add(name.trim().toLowerCase());
  }
  const siteName = metaKeyed(page, "og:site_name")?.getAttribute("content")?.trim();
  if (siteName) names.add(siteName.toLowerCase());
  names.delete("");
  return names;
});
