import { getDomain } from "tldts";

/**
 * The site a URL belongs to: the registrable domain of its host under the Public Suffix List
 * ("https://blog.example.co.uk/x" → "example.co.uk"), or the host itself for IP addresses and
 * names without a public suffix. Two URLs of the same site belong to the same publisher, so a
 * citation of www.example.com or docs.example.com verifies a target of example.com.
 * Null for a string that is not a URL.
 */
export const siteOfUrl = (url: string): string | null => {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
  if (host === "") return null;
  // bracketed IPv6 literals are their own site
  if (host.startsWith("[")) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
};
