import { runSiteChecks } from "@scan/audit";
import { AI_CATALOG_WELL_KNOWN, type AiCatalogDiscovery, aiCatalogSignals, aiCatalogUrl } from "@scan/checks";
import type { CheckStatus, Snapshot, TextResource } from "@scan/contract";
import type { PageFacts } from "./page-facts";
import { siteNameNotes } from "./page-metadata";

/** The site checks an ai-catalog.json fixes: a site audit runs them, a page scan does not. */
export const AI_CATALOG_CHECKS = ["ai-catalog", "ai-catalog-schema"] as const;

/** An ai-catalog.json ready to publish, the `<link>` that names it, and what it fixes. */
export type AiCatalogFix = {
  addresses: string[];
  /** where to serve it, on the page's origin */
  path: string;
  contentType: string;
  content: string;
  /** the `<link rel="ai-catalog">` to add to the page's head (null: the page already names this URL) */
  link: string | null;
  placement: string;
  notes: string[];
  needs?: Record<string, string>;
};

const CONTENT_TYPE = "application/ai-catalog+json";

const served = (resource: TextResource | null): resource is TextResource & { body: string } =>
  resource !== null &&
  resource.status === 200 &&
  Boolean(resource.body?.trim()) &&
  !(resource.contentType ?? "").toLowerCase().includes("html") &&
  !(resource.body ?? "").trimStart().startsWith("<!") &&
  !/^\s*<html/i.test(resource.body ?? "");

/** The signals of the page as scanned: its served HTML, its `Link` header, its robots.txt. */
const signalsOf = (snapshot: Snapshot, html: string) =>
  aiCatalogSignals({
    pageUrl: snapshot.finalUrl,
    html,
    linkHeader: snapshot.headers.link ?? null,
    robotsTxt:
      snapshot.robotsTxt && snapshot.robotsTxt.status >= 200 && snapshot.robotsTxt.status < 300
        ? snapshot.robotsTxt.body
        : null,
  });

/** A URN part as the ARD identifier pattern allows it: letters, digits, dots and dashes. */
const urnPart = (text: string) => text.replace(/[^a-zA-Z0-9.-]+/g, "-").replace(/^-+|-+$/g, "");

/**
 * ai-catalog.json (Agent Resource Discovery) from the page alone: `specVersion` "1.0", the
 * host named as the page names its site (og:site_name and the like, else the host name) with
 * its logo where the page gives one, and one entry per file the site answered with during the
 * scan (llms.txt, the sitemap), each by URL, with a `urn:air:<host>:site:<file>` identifier.
 * It is served at the URL the page already names, when that is on its origin, else at
 * /.well-known/ai-catalog.json, and named by a `<link rel="ai-catalog">` in the head. The
 * agents, MCP servers and skills the site offers are not on the page: their entries are the
 * owner's to add.
 */
export const generateAiCatalog = (facts: PageFacts, snapshot: Snapshot): AiCatalogFix => {
  const notes: string[] = [];
  const named = aiCatalogUrl(signalsOf(snapshot, snapshot.rawHtml));
  const url = new URL(named).origin === facts.origin ? new URL(named) : new URL(AI_CATALOG_WELL_KNOWN, facts.origin);
  const path = `${url.pathname}${url.search}`;
  const publisher = urnPart(new URL(facts.origin).hostname);
  const host: Record<string, string> = { displayName: facts.siteName?.value ?? facts.host };
  if (!facts.siteName)
    notes.push(
      "The page does not name its site (og:site_name, application-name, JSON-LD); host.displayName is the host name.",
    );
  notes.push(...siteNameNotes(facts.siteName, "host.displayName"));
  if (facts.logo) host.logoUrl = facts.logo.value;
  const entries: Array<Record<string, unknown>> = [];
  const files = [
    { resource: snapshot.llmsTxt, name: "llms-txt", displayName: "llms.txt", type: "text/markdown" },
    { resource: snapshot.sitemap, name: "sitemap", displayName: "Sitemap", type: "application/xml" },
  ];
  for (const { resource, name, displayName, type } of files) {
    if (!served(resource) || new URL(resource.url).origin !== facts.origin) continue;
    entries.push({
      identifier: `urn:air:${publisher}:site:${name}`,
      displayName: `${host.displayName} ${displayName}`,
      type,
      url: resource.url,
    });
  }
  if (entries.length === 0)
    notes.push("The site served neither llms.txt nor a sitemap during the scan, so the catalog lists no entry yet.");
  notes.push(
    "Add an entry for each agent card, MCP server card or skill the site offers (a urn:air: identifier, a displayName, its media type and its url), with 2 to 5 representativeQueries: the page does not state them.",
  );
  const tools = snapshot.agent?.webmcp?.tools ?? [];
  if (tools.length > 0)
    notes.push(
      `The page registers WebMCP tools (${tools
        .map((tool) => tool.name)
        .slice(0, 5)
        .join(", ")}); list the MCP server card that serves them, if there is one.`,
    );
  const content = `${JSON.stringify({ specVersion: "1.0", host, entries }, null, 2)}\n`;
  const linked = named === url.href && signalsOf(snapshot, snapshot.rawHtml).htmlLink === url.href;
  return {
    addresses: [...AI_CATALOG_CHECKS],
    path,
    contentType: CONTENT_TYPE,
    content,
    link: linked ? null : `<link rel="ai-catalog" href="${path}">`,
    placement: `Serve this as ${url.href} (${CONTENT_TYPE} or application/json, status 200)${linked ? "" : ' and add the <link rel="ai-catalog"> to the page\'s <head>'}.`,
    notes,
  };
};

/** The page with the `<link rel="ai-catalog">` added to its head (or first in the document). */
export const withAiCatalogLink = (html: string, link: string): string =>
  /<\/head\s*>/i.test(html) ? html.replace(/<\/head\s*>/i, `${link}</head>`) : `${link}${html}`;

/** A site check's verdict on the page as scanned and on the patched copy. */
export type SiteRecheck = { id: string; before: CheckStatus; after: CheckStatus; description: string };

/**
 * The ai-catalog site checks on the patched copy, run as a site audit runs them (@scan/audit's
 * runSiteChecks): the catalog is looked for from the patched page's HTML, `Link` header and
 * robots.txt in Lighthouse's order, and found with the generated file where the signals name
 * its URL. A page scan does not fetch ai-catalog.json, so before the fix their verdicts are
 * not known: "skip", saying so.
 */
export const recheckAiCatalog = (patched: Snapshot, catalog: AiCatalogFix | null): SiteRecheck[] => {
  if (!catalog) return [];
  const signals = signalsOf(patched, patched.rawHtml);
  const url = aiCatalogUrl(signals);
  const own = new URL(catalog.path, patched.finalUrl).href;
  const discovery: AiCatalogDiscovery = {
    signals,
    catalog:
      url === own
        ? { url, status: 200, contentType: catalog.contentType, body: catalog.content, error: null }
        : { url, status: 0, contentType: null, body: null, error: "not fetched: it is not the generated file" },
  };
  const origin = new URL(patched.finalUrl).origin;
  const results = runSiteChecks({
    origin,
    pages: [],
    robots: { allowsGooglebot: () => true },
    llmsTxt: null,
    aiCatalog: discovery,
    extraAnswers: new Map(),
  });
  return AI_CATALOG_CHECKS.map((id) => {
    const result = results.find((entry) => entry.id === id);
    return {
      id,
      before: "skip",
      after: result?.status ?? "skip",
      description:
        result?.status === "fail"
          ? `${result.description} ${result.findings.map((finding) => finding.detail).join("; ")}`
          : (result?.description ?? "not run"),
    };
  });
};
