import { getDomain, getDomainWithoutSuffix } from "tldts";

/**
 * The registrable domain of a host under the Public Suffix List ("blog.example.co.uk" →
 * "example.co.uk"), or the host itself for IP addresses and names without a public suffix
 * (localhost). Two hosts with the same site belong to the same publisher.
 */
export const siteOf = (hostname: string): string => {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
};

/** The name of a site without its public suffix ("bbc.co.uk" → "bbc"), or the site itself. */
export const siteLabelOf = (site: string): string =>
  getDomainWithoutSuffix(site, { allowPrivateDomains: true }) ?? site;
