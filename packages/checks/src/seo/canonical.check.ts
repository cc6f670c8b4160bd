import { defineCheck } from "../check";
import type { Page } from "../page";
import { linkRefs, resolveHref } from "./head";

type Finding =
  | { kind: "none" }
  | { kind: "invalid" | "relative"; raw: string }
  | { kind: "conflict"; urls: string[] }
  | { kind: "one"; url: URL };

/** Canonical annotations from `<link>` in the head and from `Link` headers, as Lighthouse collects them. */
const findCanonical = (page: Page): Finding => {
  const unique = new Set<string>();
  let bad: Finding | null = null;
  for (const link of linkRefs(page)) {
    if (link.source === "body" || !link.rels.includes("canonical") || link.hrefRaw.trim() === "") continue;
    let absolute: URL | null = null;
    try {
      absolute = new URL(link.hrefRaw);
    } catch {
      absolute = null;
    }
    if (absolute && (absolute.protocol === "http:" || absolute.protocol === "https:")) {
      // Lighthouse dedupes on the URL resolved by the browser, so trivially different spellings of one URL agree
      unique.add(absolute.href);
    } else if (!absolute && resolveHref(page, link.hrefRaw)) {
      bad ??= { kind: "relative", raw: link.hrefRaw };
    } else {
      bad = { kind: "invalid", raw: link.hrefRaw };
    }
  }
  if (bad) return bad;
  const urls = [...unique];
  const [only] = urls;
  if (only === undefined) return { kind: "none" };
  if (urls.length > 1) return { kind: "conflict", urls };
  return { kind: "one", url: new URL(only) };
};

/** URLs the page's hreflang alternates point at (resolved), for the cross-language mistake. */
const hreflangTargets = (page: Page): Set<string> => {
  const targets = new Set<string>();
  for (const link of linkRefs(page)) {
    if (link.source === "body" || !link.rels.includes("alternate") || link.hreflang === "") continue;
    const url = resolveHref(page, link.hrefRaw);
    if (url) targets.add(url.href);
  }
  return targets;
};

/**
 * Lighthouse `canonical`: one valid absolute canonical URL. Fails when a canonical is
 * unparseable or relative, when several canonicals disagree, when the canonical points at
 * another language's hreflang alternate, or when a deeper page points its canonical at its own
 * site's root (docs/spec/checks.md's "pointing at another domain's root" is read as Lighthouse's rule:
 * the homepage is not an equivalent of an inner page; a canonical to another site is a
 * legitimate cross-domain canonical and passes, as in Lighthouse). Without any canonical the
 * check warns (Lighthouse calls that not applicable): search engines then pick one themselves.
 */
export const canonical = defineCheck({
  id: "canonical",
  category: "seo",
  severity: "warning",
  maxScore: 5,
  quick: true,
  title: "Page declares a valid canonical URL",
  run: (page) => {
    const found = findCanonical(page);
    switch (found.kind) {
      case "none":
        return {
          status: "warn",
          description: "The page declares no canonical URL; search engines will choose one among its duplicates.",
          fix: `Add <link rel="canonical" href="${page.finalUrl.href}"> (or the preferred URL of this content) in the <head>.`,
          evidence: [],
        };
      case "invalid":
        return {
          status: "fail",
          description: `The canonical URL "${found.raw}" is not a valid web URL.`,
          fix: `Replace the canonical "${found.raw}" with the full https:// URL of the preferred page, such as ${page.finalUrl.href}.`,
          evidence: [found.raw],
        };
      case "relative":
        return {
          status: "fail",
          description: `The canonical URL "${found.raw}" is relative; search engines may resolve it differently.`,
          fix: `Write the canonical "${found.raw}" as an absolute URL, including https:// and the host: ${resolveHref(page, found.raw)?.href ?? page.finalUrl.href}.`,
          evidence: [found.raw],
        };
      case "conflict":
        return {
          status: "fail",
          description: `The page declares ${found.urls.length} different canonical URLs (${found.urls.join(", ")}); search engines ignore conflicting canonicals.`,
          fix: `Keep a single rel=canonical of ${found.urls.join(", ")} (check templates, plugins and Link headers for duplicates).`,
          evidence: found.urls,
        };
      case "one": {
        const own = page.finalUrl;
        const alternates = hreflangTargets(page);
        if (alternates.has(own.href) && alternates.has(found.url.href) && own.href !== found.url.href) {
          return {
            status: "fail",
            description: `The canonical points at ${found.url.href}, another language version of this page listed in its hreflang links.`,
            fix: `Make this page canonical to itself (${own.href}), not to ${found.url.href}; hreflang already links the versions.`,
            evidence: [found.url.href],
          };
        }
        if (found.url.origin === own.origin && found.url.pathname === "/" && own.pathname !== "/") {
          return {
            status: "fail",
            description: `The canonical points at the site's homepage (${found.url.href}) instead of an equivalent of this page.`,
            fix: `Point the canonical at this page's own preferred URL, e.g. ${own.origin}${own.pathname}.`,
            evidence: [found.url.href],
          };
        }
        const self = found.url.href === own.href ? " (this page itself)" : "";
        return { status: "pass", description: `Canonical URL: ${found.url.href}${self}.`, evidence: [found.url.href] };
      }
    }
  },
});
