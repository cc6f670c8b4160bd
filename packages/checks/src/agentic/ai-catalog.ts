import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import LinkHeader from "http-link-header";
import { parseHTML } from "linkedom";
import { z } from "zod";
import schema from "./ai-catalog.schema.json";

/** Where the ARD specification says a site's catalog is found when nothing names another place. */
export const AI_CATALOG_WELL_KNOWN = "/.well-known/ai-catalog.json";

/** A fetched file as the scanner keeps it (the fields of @scan/contract's TextResource that matter here). */
export const CatalogFile = z.object({
  url: z.string(),
  status: z.number().int(),
  contentType: z.string().nullable(),
  body: z.string().nullable(),
  error: z.string().nullable(),
});
export type CatalogFile = z.infer<typeof CatalogFile>;

/** How a site names its ai-catalog.json (ARD: a `Link` header, a `<link>` in the page, or the well-known path). */
export const AiCatalogSignals = z.object({
  /** `Agentmap:` in robots.txt, which Lighthouse 13.5 reads first */
  robotsTxtAgentmap: z.string().nullable(),
  htmlLink: z.string().nullable(),
  httpHeaderLink: z.string().nullable(),
  wellKnown: z.string(),
});
export type AiCatalogSignals = z.infer<typeof AiCatalogSignals>;

/** What the site gave when its catalog was looked for: the signals, and the file at the URL they chose. */
export const AiCatalogDiscovery = z.object({
  signals: AiCatalogSignals,
  catalog: CatalogFile,
});
export type AiCatalogDiscovery = z.infer<typeof AiCatalogDiscovery>;

const absolute = (href: string | undefined | null, base: string): string | null => {
  if (!href) return null;
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
};

/** The signals of a page: its HTML, its `Link` header, the site's robots.txt. */
export const aiCatalogSignals = ({
  pageUrl,
  html,
  linkHeader,
  robotsTxt,
}: {
  pageUrl: string;
  html: string | null;
  linkHeader: string | null;
  robotsTxt: string | null;
}): AiCatalogSignals => {
  let htmlLink: string | null = null;
  if (html) {
    const { document } = parseHTML(html);
    const link = [...document.querySelectorAll("link[rel]")].find((element) =>
      (element.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).includes("ai-catalog"),
    );
    htmlLink = absolute(link?.getAttribute("href"), pageUrl);
  }
  let httpHeaderLink: string | null = null;
  if (linkHeader) {
    try {
      httpHeaderLink = absolute(LinkHeader.parse(linkHeader).get("rel", "ai-catalog")[0]?.uri, pageUrl);
    } catch {
      // an unparseable Link header names nothing
    }
  }
  const agentmap = robotsTxt ? /^\s*Agentmap:\s*(\S+)/im.exec(robotsTxt)?.[1] : undefined;
  return {
    robotsTxtAgentmap: absolute(agentmap, pageUrl),
    htmlLink,
    httpHeaderLink,
    wellKnown: new URL(AI_CATALOG_WELL_KNOWN, pageUrl).href,
  };
};

/** The URL to fetch, in Lighthouse 13.5's order: robots.txt's Agentmap, the `<link>`, the `Link` header, the well-known path. */
export const aiCatalogUrl = (signals: AiCatalogSignals): string =>
  signals.robotsTxtAgentmap ?? signals.htmlLink ?? signals.httpHeaderLink ?? signals.wellKnown;

export const isAdvertised = (signals: AiCatalogSignals): boolean =>
  Boolean(signals.robotsTxtAgentmap || signals.htmlLink || signals.httpHeaderLink);

export type CatalogIssue = { element: string; message: string };
export type CatalogValidation = { errors: CatalogIssue[]; warnings: CatalogIssue[] };

const ajv = new Ajv2020({ allErrors: false, strict: false });
addFormats(ajv, ["uri", "date-time"]);
const validateSchema = ajv.compile(schema);

// urn:air:<publisher>:<namespace>:<agent-name>, as the ARD conformance test reads it
const URN = /^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$/;
const MEDIA_TYPES = [
  "application/ai-catalog+json",
  "application/agent-card+json",
  "application/a2a-agent-card+json",
  "application/mcp-server-card+json",
  "application/agent-skills+zip",
  "application/agent-skills+gzip",
  'text/markdown; profile="urn:air:agent-skills"',
  "application/ai-registry",
  "application/ai-registry+json",
];

type Entry = Record<string, unknown>;

/**
 * An ai-catalog.json judged as the ARD conformance test judges it (ards-project/ard-spec
 * `conformance/bin/conformance-test`, which Lighthouse 13.5's `ard-schema` ports): JSON, the
 * specification's JSON schema (first error only, as there), then the semantic rules.
 */
export const validateAiCatalog = (body: string): CatalogValidation => {
  const errors: CatalogIssue[] = [];
  const warnings: CatalogIssue[] = [];
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    errors.push({ element: "Root", message: `Malformed JSON: ${error instanceof Error ? error.message : error}` });
    return { errors, warnings };
  }
  if (!validateSchema(data)) {
    const first = validateSchema.errors?.[0];
    const path = first?.instancePath ? first.instancePath.replace(/^\//, "").replace(/\//g, ".") : "root";
    const message =
      first?.keyword === "required"
        ? `'${(first.params as { missingProperty: string }).missingProperty}' is a required property`
        : (first?.message ?? "unknown schema error");
    errors.push({ element: "Root", message: `JSON schema: ${message} at '${path}'` });
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { errors, warnings };
  const root = data as Record<string, unknown>;
  if (!root.specVersion) errors.push({ element: "Root", message: "Missing required 'specVersion'." });
  else if (root.specVersion !== "1.0")
    warnings.push({
      element: "Root",
      message: `Unrecognised 'specVersion' ${String(root.specVersion)}; expected '1.0'.`,
    });
  const entries = root.entries;
  if (entries === undefined || entries === null) {
    errors.push({ element: "Root", message: "Missing required 'entries' array." });
    return { errors, warnings };
  }
  if (!Array.isArray(entries)) {
    errors.push({ element: "Root", message: "'entries' must be an array." });
    return { errors, warnings };
  }
  entries.forEach((raw: unknown, index) => {
    const entry: Entry = typeof raw === "object" && raw !== null ? (raw as Entry) : {};
    const element = String(entry.displayName || entry.identifier || `Entry #${index}`);
    const identifier = entry.identifier;
    if (!identifier) errors.push({ element, message: "Missing required 'identifier'." });
    else if (!URN.test(String(identifier)))
      errors.push({
        element,
        message: `Identifier '${String(identifier)}' is not a URN 'urn:air:<publisher>:<namespace>:<agent-name>'.`,
      });
    if (!entry.displayName) errors.push({ element, message: "Missing required 'displayName'." });
    if (!entry.type) errors.push({ element, message: "Missing required 'type' (media type)." });
    else if (!MEDIA_TYPES.includes(String(entry.type)))
      warnings.push({ element, message: `Media type '${String(entry.type)}' is not one of the ARD discovery types.` });
    const hasUrl = entry.url !== undefined;
    const hasData = entry.data !== undefined;
    if (hasUrl === hasData)
      errors.push({
        element,
        message: `Gives ${hasUrl ? "both 'url' and 'data'" : "neither 'url' nor 'data'"}; exactly one is required.`,
      });
    const queries = entry.representativeQueries;
    if (queries === undefined || queries === null)
      warnings.push({ element, message: "No 'representativeQueries'; 2 to 5 are recommended for search indexes." });
    else if (!Array.isArray(queries))
      errors.push({ element, message: "'representativeQueries' must be an array of strings." });
    else {
      if (queries.length < 2 || queries.length > 5)
        warnings.push({ element, message: `${queries.length} 'representativeQueries'; 2 to 5 are recommended.` });
      for (const query of queries)
        if (typeof query !== "string")
          errors.push({ element, message: `Query ${JSON.stringify(query)} is not a string.` });
    }
    const trust = entry.trustManifest;
    if (trust !== undefined && trust !== null) {
      if (typeof trust !== "object" || Array.isArray(trust))
        errors.push({ element, message: "'trustManifest' must be an object." });
      else if (!(trust as Entry).identity) errors.push({ element, message: "'trustManifest' lacks its 'identity'." });
    }
  });
  if ("collections" in root)
    errors.push({
      element: "Root",
      message:
        "Root 'collections' were removed (ARD ADR-0003); nest catalogs as entries of type application/ai-catalog+json.",
    });
  return { errors, warnings };
};

/** What the site's catalog comes to: absent, named but unreadable, or read and validated. */
export type AiCatalogState =
  | { kind: "absent"; why: string }
  | { kind: "unreadable"; url: string; why: string }
  | ({ kind: "read"; url: string } & CatalogValidation);

const isHtml = (file: CatalogFile): boolean =>
  (file.contentType ?? "").toLowerCase().includes("html") || (file.body ?? "").trimStart().startsWith("<");

/**
 * The catalog as the ai-catalog checks judge it. As in Lighthouse 13.5, a catalog a signal names
 * must answer 200 with a body, and a 200 at the well-known path counts as a catalog though no
 * signal names it. Unlike Lighthouse, an HTML page answered at the well-known path (a soft 404
 * from a site that answers every path with its shell) is no catalog: the site has none, as for
 * llms.txt (llms-file.ts), where Lighthouse would report it as an invalid catalog.
 */
export const aiCatalogState = ({ signals, catalog }: AiCatalogDiscovery): AiCatalogState => {
  const named = isAdvertised(signals);
  const answered =
    catalog.status === 0 ? `gets no answer (${catalog.error ?? "no answer"})` : `answers ${catalog.status}`;
  if (!named) {
    if (catalog.status !== 200)
      return { kind: "absent", why: `no link names an ai-catalog.json and ${catalog.url} ${answered}` };
    if (isHtml(catalog)) return { kind: "absent", why: `${catalog.url} answers 200 with an HTML page, not a catalog` };
  }
  if (catalog.status !== 200 || !catalog.body)
    return {
      kind: "unreadable",
      url: catalog.url,
      why: `${catalog.url}, named by ${signalNames(signals).join(" and ")}, ${catalog.status === 200 ? "answers 200 with an empty body" : answered}`,
    };
  return { kind: "read", url: catalog.url, ...validateAiCatalog(catalog.body) };
};

/** The signals that name a catalog, by what they are. */
export const signalNames = (signals: AiCatalogSignals): string[] =>
  [
    signals.robotsTxtAgentmap ? "robots.txt's Agentmap" : null,
    signals.htmlLink ? 'the page\'s <link rel="ai-catalog">' : null,
    signals.httpHeaderLink ? 'the Link header rel="ai-catalog"' : null,
  ].filter((name): name is string => name !== null);
