import {
  anchors,
  directivesFor,
  documentTitle,
  foldWhitespace,
  linkRefs,
  metaNamed,
  type Page,
  preparePage,
  resolveHref,
} from "@scan/checks";
import type { Snapshot } from "@scan/contract";
import { z } from "zod";
import { normaliseAuditUrl } from "./urls";

/** links kept per page: enough for any real page's navigation and content */
export const MAX_LINKS_PER_PAGE = 1_000;
const MAX_TEXT = 300;

/** What one scanned page tells the site checks; stored with the page, read when the audit finishes. */
export const PageFacts = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  /** the first valid canonical annotation (head `<link>` or `Link` header), absolute */
  canonical: z.string().nullable(),
  /** hreflang alternates of the head and `Link` header, absolute */
  hreflang: z.array(z.object({ lang: z.string(), href: z.string() })),
  /** distinct same-origin links of the page, normalised, in document order */
  links: z.array(z.string()),
  /** noindex or none in meta robots, googlebot or X-Robots-Tag */
  noindex: z.boolean(),
  /** the redirects the page's URL went through before its final answer */
  redirects: z.array(z.object({ url: z.string(), status: z.int() })),
  redirectLoop: z.boolean(),
  /**
   * What the page itself names as its site's ai-catalog.json (ARD): the first `<link
   * rel="ai-catalog">`'s href and the first `Link` header target with that rel, absolute against
   * the final URL as `aiCatalogSignals` reads them. The audit's report reads the start page's.
   * Absent on facts stored before they were read.
   */
  aiCatalog: z.object({ htmlLink: z.string().nullable(), httpHeaderLink: z.string().nullable() }).optional(),
});
export type PageFacts = z.infer<typeof PageFacts>;

/** an href made absolute against the page's URL; an empty one names nothing (as in `aiCatalogSignals`) */
const absoluteTo = (raw: string, base: URL): string | null => {
  if (raw === "") return null;
  try {
    return new URL(raw, base).href;
  } catch {
    return null;
  }
};

const clip = (text: string | null): string | null => (text === null ? null : text.slice(0, MAX_TEXT));

/** The page's facts, read from its snapshot with the same readings the page checks use. */
export const factsOf = (snapshot: Snapshot, scannedAt: Date): PageFacts =>
  factsOfPage(preparePage(snapshot, scannedAt));

/** The same, from a snapshot the checks already prepared (parsed once for both). */
export const factsOfPage = (page: Page): PageFacts => {
  const { snapshot } = page;
  const origin = page.finalUrl.origin;
  const titleText = foldWhitespace(documentTitle(page)?.textContent ?? "");
  const descriptionText = foldWhitespace(metaNamed(page, "description")?.getAttribute("content") ?? "");
  let canonical: string | null = null;
  const hreflang: PageFacts["hreflang"] = [];
  // undefined until the first ai-catalog link of its source is met: only the first one counts
  let catalogLink: string | null | undefined;
  let catalogHeaderLink: string | null | undefined;
  for (const link of linkRefs(page)) {
    if (link.rels.includes("ai-catalog")) {
      if (link.source !== "header" && catalogLink === undefined) catalogLink = absoluteTo(link.hrefRaw, page.finalUrl);
      if (link.source === "header" && catalogHeaderLink === undefined)
        catalogHeaderLink = absoluteTo(link.hrefRaw, page.finalUrl);
    }
    if (link.source === "body" || link.hrefRaw.trim() === "") continue;
    const href = resolveHref(page, link.hrefRaw.trim());
    const normalised = href ? normaliseAuditUrl(href.toString()) : null;
    if (!normalised) continue;
    if (link.rels.includes("canonical")) canonical ??= normalised;
    if (link.rels.includes("alternate") && link.hreflang !== "")
      hreflang.push({ lang: link.hreflang.toLowerCase(), href: normalised });
  }
  const links = new Set<string>();
  for (const anchor of anchors(page)) {
    if (links.size >= MAX_LINKS_PER_PAGE) break;
    if (!anchor.href) continue;
    const normalised = normaliseAuditUrl(anchor.href.toString());
    if (normalised && new URL(normalised).origin === origin) links.add(normalised);
  }
  const noindex = directivesFor(page, ["googlebot"]).some(
    (directive) => directive.name === "noindex" || directive.name === "none",
  );
  return {
    title: titleText === "" ? null : clip(titleText),
    description: descriptionText === "" ? null : clip(descriptionText),
    canonical,
    hreflang,
    links: [...links],
    noindex,
    redirects: snapshot.redirects.map((hop) => ({ url: hop.url, status: hop.status })),
    redirectLoop: snapshot.redirectLoop,
    aiCatalog: { htmlLink: catalogLink ?? null, httpHeaderLink: catalogHeaderLink ?? null },
  };
};
