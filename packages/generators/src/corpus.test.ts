import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckDefinition } from "@scan/checks";
import {
  aiSearchAccess,
  articleSchema,
  author,
  breadcrumbSchema,
  faqSchema,
  llmsTxt,
  llmsTxtFormat,
  organizationSchema,
  type Page,
  parseDocument,
  preparePage,
  publishDate,
  robotsTxt,
  structuredData,
  visibleText,
} from "@scan/checks";
import { corpusPagesDir, FIXED_SCAN_TIME, snapshotOf } from "@scan/checks/testing";
import type { CheckStatus, Snapshot, TextResource } from "@scan/contract";
import { fixes, withJsonLd } from "./fixes";

/**
 * The fixes generated for every page of the real-page corpus (../shared/corpus), judged by the
 * scanner's own checks, browser-free: each page is a snapshot whose raw and rendered HTML are
 * the saved file, served as http://127.0.0.1:8080/<page>/ with no robots.txt, llms.txt or
 * sitemap (as the corpus server serves it).
 *
 * - The JSON-LD, put into the page in place of the page's own JSON-LD blocks, passes
 *   structured-data; every check it claims to address passes (organization-schema and
 *   article-schema may warn where the page lacks a logo, an author or a date, and must pass
 *   where it has them); and no JSON-LD check gets a worse verdict than the page had.
 * - The llms.txt, served as /llms.txt, passes llms-txt and llms-txt-format.
 * - The robots.txt, served as /robots.txt, passes robots-txt and ai-search-access.
 * - Nothing is made up: every string value of the JSON-LD (but @context and @type, the
 *   vocabulary) and every link, label, title and summary of the llms.txt is found on the page:
 *   in its text, an attribute or its own JSON-LD (compared without whitespace, as text read
 *   across inline elements may join or split words), or, for URLs, is a URL the page links or
 *   its own URL or origin; @ids are the page's URL or origin with a fragment, or the page's own.
 */

const PAGES = corpusPagesDir();
const pages = readdirSync(PAGES).sort();
const ORIGIN = "http://127.0.0.1:8080";

const file = (path: string, body: string | null, status: number, contentType = "text/plain"): TextResource => ({
  url: `${ORIGIN}${path}`,
  status,
  contentType,
  body,
  truncated: false,
  error: null,
});

const snapshotFor = (name: string, html: string, overrides: Partial<Snapshot> = {}): Snapshot => {
  const url = `${ORIGIN}/${name}/`;
  return snapshotOf(html, {
    requestedUrl: url,
    finalUrl: url,
    robotsTxt: file("/robots.txt", "not found", 404),
    llmsTxt: file("/llms.txt", "not found", 404),
    sitemap: file("/sitemap.xml", "not found", 404),
    ...overrides,
  });
};

// one parse per snapshot, shared by the checks run on it (as in a scan)
const prepared = new WeakMap<Snapshot, Page>();
const verdict = (check: CheckDefinition, snapshot: Snapshot): CheckStatus => {
  let page = prepared.get(snapshot);
  if (!page) {
    page = preparePage(snapshot, FIXED_SCAN_TIME);
    prepared.set(snapshot, page);
  }
  return check.run(page).status;
};

const JSON_LD_CHECKS = [organizationSchema, articleSchema, faqSchema, breadcrumbSchema, author, publishDate];

const noSpace = (text: string): string => text.replace(/\s+/g, "");

/** Everything the page says: visible text, attribute values, and the strings of its JSON-LD. */
type Evidence = { text: string; urls: Set<string>; pageUrl: string };

const stringsIn = (value: unknown, into: string[]): void => {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) stringsIn(item, into);
};

const evidenceOf = (name: string, html: string): Evidence => {
  const doc = parseDocument(html);
  const pageUrl = `${ORIGIN}/${name}/`;
  const base = new URL(doc.querySelector("base[href]")?.getAttribute("href") ?? pageUrl, pageUrl);
  const parts: string[] = [visibleText(doc), doc.querySelector("title")?.textContent ?? ""];
  const urls = new Set<string>([pageUrl, ORIGIN, `${ORIGIN}/`]);
  const addUrl = (raw: string) => {
    try {
      const url = new URL(raw.trim(), base);
      urls.add(url.href);
      url.hash = "";
      urls.add(url.href);
    } catch {
      // not a URL
    }
  };
  for (const element of doc.querySelectorAll("*")) {
    for (const attribute of element.attributes) {
      parts.push(attribute.value);
      if (!/\s/.test(attribute.value.trim())) addUrl(attribute.value);
    }
  }
  for (const script of doc.querySelectorAll("script")) {
    const raw = (script.textContent ?? "").replace(
      /^\s*(?:\/\/\s*)?(?:<!\[CDATA\[|<!--)|(?:\/\/\s*)?(?:\]\]>|-->)\s*$/g,
      "",
    );
    try {
      const strings: string[] = [];
      stringsIn(JSON.parse(raw), strings);
      parts.push(...strings);
      for (const value of strings) addUrl(value);
    } catch {
      // not JSON
    }
  }
  return { text: noSpace(parts.join(" ")), urls, pageUrl };
};

const traces = (evidence: Evidence, value: string): boolean =>
  evidence.urls.has(value) || evidence.text.includes(noSpace(value));

/** Every string of the generated JSON-LD that is not found on the page, as "path: value". */
const inventedIn = (evidence: Evidence, value: unknown, path = ""): string[] => {
  if (typeof value === "string") {
    const key = path.split(".").pop() ?? "";
    if (key === "@context" || key === "@type") return [];
    if (key === "@id") {
      const own =
        value.startsWith(`${evidence.pageUrl}#`) || value.startsWith(`${ORIGIN}/#`) || value === evidence.pageUrl;
      return own || traces(evidence, value) ? [] : [`${path}: ${value}`];
    }
    return traces(evidence, value) ? [] : [`${path}: ${value}`];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => inventedIn(evidence, item, `${path}.${index}`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => inventedIn(evidence, item, `${path}.${key}`));
  }
  return [];
};

/** The H1, summary, link labels and link targets of an llms.txt that are not found on the page. */
const inventedInLlmsTxt = (evidence: Evidence, body: string, host: string): string[] => {
  const problems: string[] = [];
  const unbracket = (text: string) => noSpace(text).replace(/[[\]()]/g, "");
  const text = evidence.text.replace(/[[\]()]/g, "");
  // the host name and the page's URL are the page's own words too
  const found = (value: string) => value === host || evidence.urls.has(value) || text.includes(unbracket(value));
  for (const line of body.split("\n")) {
    const h1 = /^# (.+)$/.exec(line);
    if (h1?.[1] && !found(h1[1])) problems.push(`H1: ${h1[1]}`);
    const summary = /^> (.+)$/.exec(line);
    if (summary?.[1] && !found(summary[1])) problems.push(`summary: ${summary[1]}`);
    for (const match of line.matchAll(/\[([^\]]*)\]\(([^)\s]+)\)(?::\s*(.*))?/g)) {
      const [, label = "", target = "", note] = match;
      const url = target.replace(/%28/g, "(").replace(/%29/g, ")").replace(/%20/g, " ");
      if (!evidence.urls.has(url) && !evidence.urls.has(new URL(url).href)) problems.push(`link: ${url}`);
      if (!found(label)) problems.push(`label: ${label}`);
      if (note && !found(note)) problems.push(`note: ${note}`);
    }
  }
  return problems;
};

// a skip is "not applicable": nothing faulted, so a check going from skip to warn got worse
const RANK: Record<CheckStatus, number> = { fail: 0, warn: 1, pass: 2, skip: 2 };

describe.each(pages)("fixes for corpus page %s", (name) => {
  const html = readFileSync(join(PAGES, name, "index.html"), "utf8");
  const snapshot = snapshotFor(name, html);
  const generated = fixes(snapshot, { scannedAt: FIXED_SCAN_TIME });
  const evidence = evidenceOf(name, html);

  it("is proven: every check a file addresses passes with it in place, and no verdict or score gets worse", () => {
    const { proof } = generated;
    const after = new Map(proof.checks.map((check) => [check.id, check]));
    for (const file of [generated.llmsTxt, generated.jsonLd, generated.robotsTxt]) {
      for (const id of file?.addresses ?? []) expect([name, id, after.get(id)?.after]).toEqual([name, id, "pass"]);
      for (const still of file?.ownerMustSupply ?? []) {
        expect([name, still.id, RANK[still.after] >= RANK[still.before], still.what]).toEqual([
          name,
          still.id,
          true,
          expect.stringMatching(/\S/),
        ]);
      }
    }
    for (const check of proof.checks) {
      expect([name, check.id, check.before, check.after, RANK[check.after] >= RANK[check.before]]).toEqual([
        name,
        check.id,
        check.before,
        check.after,
        true,
      ]);
    }
    expect([name, proof.after.scores.overall >= proof.before.scores.overall]).toEqual([name, true]);
    expect([name, generated.jsonLd?.addresses.includes("structured-data")]).toEqual([name, true]);
  });

  it("is proven on what the owner would publish: the JSON-LD in place of the page's own passes structured-data", () => {
    const jsonLd = generated.jsonLd;
    if (!jsonLd) throw new Error("no JSON-LD generated");
    const after = snapshotFor(name, withJsonLd(html, jsonLd.html));
    expect([name, verdict(structuredData, after)]).toEqual([name, "pass"]);
    for (const id of jsonLd.addresses) {
      const check = JSON_LD_CHECKS.find((candidate) => candidate.id === id);
      if (check) expect([name, id, verdict(check, after)]).toEqual([name, id, "pass"]);
    }
  });

  it("JSON-LD holds only values found on the page", () => {
    expect([name, inventedIn(evidence, generated.jsonLd?.data)]).toEqual([name, []]);
  });

  // the page with the generated llms.txt and robots.txt served beside it
  const served = snapshotFor(name, html, {
    llmsTxt: file("/llms.txt", generated.llmsTxt?.content ?? "", 200, "text/markdown; charset=utf-8"),
    robotsTxt: file("/robots.txt", generated.robotsTxt?.content ?? "", 200),
  });

  it("llms.txt served as /llms.txt passes llms-txt and llms-txt-format, and lists only the page's links", () => {
    expect([name, verdict(llmsTxt, served), verdict(llmsTxtFormat, served)]).toEqual([name, "pass", "pass"]);
    expect([name, inventedInLlmsTxt(evidence, generated.llmsTxt?.content ?? "", "127.0.0.1")]).toEqual([name, []]);
  });

  it("robots.txt served as /robots.txt passes robots-txt and ai-search-access", () => {
    expect([name, verdict(robotsTxt, served), verdict(aiSearchAccess, served)]).toEqual([name, "pass", "pass"]);
  });
});
