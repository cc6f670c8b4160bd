import { XMLValidator } from "fast-xml-parser";
import { defineCheck, type Verdict } from "../check";
import { clip } from "../lib/text";

const ROOTS = new Set(["urlset", "sitemapindex"]);

/** The name of the first element after the prolog, comments and doctype, without namespace prefix. */
const rootElement = (xml: string): string | null => {
  const match = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<([A-Za-z_][\w.:-]*)/i.exec(xml);
  return match?.[1]?.replace(/^.*:/, "").toLowerCase() ?? null;
};

const count = (xml: string, tag: string): number =>
  xml.match(new RegExp(`<(?:[\\w.-]+:)?${tag}[\\s>]`, "g"))?.length ?? 0;

// Full XML validation costs about 60 ms a megabyte; beyond this, structure is checked instead.
const FULL_VALIDATION_BYTES = 512 * 1024;

/**
 * Why the sitemap is not well-formed, or null. Small files are validated in full; larger ones
 * must close their root element and every entry they open. A body cut by the fetch cap cannot be
 * well-formed, so only its beginning is judged.
 */
const wellFormednessProblem = (xml: string, root: string, truncated: boolean): string | null => {
  if (truncated) return null;
  if (xml.length <= FULL_VALIDATION_BYTES) {
    const validation = XMLValidator.validate(xml);
    return validation === true ? null : `${validation.err.msg} (line ${validation.err.line})`;
  }
  if (!new RegExp(`</(?:[\\w.-]+:)?${root}>\\s*$`).test(xml)) return `it does not end by closing <${root}>`;
  const entry = root === "urlset" ? "url" : "sitemap";
  const opened = count(xml, entry);
  const closed = xml.match(new RegExp(`</(?:[\\w.-]+:)?${entry}>`, "g"))?.length ?? 0;
  return opened === closed ? null : `${opened} <${entry}> entries are opened but ${closed} closed`;
};

const isWebUrl = (line: string): boolean => {
  try {
    const { protocol } = new URL(line);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
};

const judgeBody = (url: string, body: string, truncated: boolean): Verdict => {
  const text = body.replace(/^\uFEFF/, "");
  const fix = "Serve a sitemap of <urlset> (or a <sitemapindex>) per sitemaps.org and list it in robots.txt.";
  if (text.startsWith("\u001f")) {
    return {
      status: "pass",
      description: `A gzip-compressed sitemap was found at ${url} (its entries were not read).`,
    };
  }
  if (text.trim() === "")
    return {
      status: "fail",
      description: `The sitemap at ${url} is empty.`,
      fix: `Fill ${url} with ${fix.charAt(0).toLowerCase()}${fix.slice(1)}`,
      evidence: [url, "empty"],
    };
  if (text.trimStart().startsWith("<")) {
    const root = rootElement(text);
    if (root === "html") {
      return {
        status: "warn",
        description: `No sitemap was found: ${url} answers with an HTML page.`,
        fix: `Publish a sitemap in place of the HTML page at ${url} and add a Sitemap: line for it to robots.txt.`,
        evidence: [url, "html"],
      };
    }
    if (!root || !ROOTS.has(root)) {
      return {
        status: "fail",
        description: `${url} is XML but its root is <${root ?? "?"}>, not <urlset> or <sitemapindex>.`,
        fix: `${fix} (${url} has <${root ?? "?"}>)`,
        evidence: [url, root ?? "?"],
      };
    }
    const problem = wellFormednessProblem(text, root, truncated);
    if (problem)
      return {
        status: "fail",
        description: `The sitemap at ${url} is not well-formed XML: ${problem}.`,
        fix: `Repair ${url} (${problem}): ${fix.charAt(0).toLowerCase()}${fix.slice(1)}`,
        evidence: [url, problem],
      };
    const entries = root === "urlset" ? count(text, "url") : count(text, "sitemap");
    const what = root === "urlset" ? "URLs" : "child sitemaps";
    return {
      status: "pass",
      description: `A valid <${root}> sitemap with ${entries}${truncated ? "+" : ""} ${what} is at ${url}.`,
    };
  }
  // sitemaps.org also allows a plain-text sitemap: one absolute URL per line
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const bad = lines.filter(
    (line, index) => line !== "" && !isWebUrl(line) && !(truncated && index === lines.length - 1),
  );
  if (bad.length === 0) {
    const urls = lines.filter((line) => line !== "").length;
    return { status: "pass", description: `A plain-text sitemap with ${urls} URLs is at ${url}.` };
  }
  return {
    status: "fail",
    description: `${url} is neither sitemap XML nor a list of URLs (e.g. "${clip(bad[0] ?? "", 50)}").`,
    fix: `${fix} (${url} starts with "${clip(bad[0] ?? "", 50)}")`,
    evidence: [url, bad[0] ?? ""],
  };
};

/**
 * The sitemap named by robots.txt's first `Sitemap:` line, else /sitemap.xml, as the worker
 * fetched it: valid `<urlset>` or `<sitemapindex>` XML passes; none found (4xx, a failed fetch,
 * or an HTML page standing in for it) warns; a file that is not a sitemap fails. Also passes: a
 * plain-text sitemap (one URL per line, allowed by sitemaps.org and read by Google), and a
 * gzip-compressed one, whose entries are not read. Skips when no sitemap was fetched (quick scans).
 */
export const sitemap = defineCheck({
  id: "sitemap",
  category: "seo",
  severity: "info",
  maxScore: 2,
  quick: false,
  title: "A valid sitemap is published",
  run: ({ snapshot }) => {
    const resource = snapshot.sitemap;
    if (!resource) return { status: "skip", description: "The sitemap was not fetched in this scan." };
    const origin = new URL(resource.url).origin;
    const notFound = `Publish a sitemap (such as ${origin}/sitemap.xml) and add a Sitemap: line for it to ${origin}/robots.txt.`;
    if (resource.status === 0) {
      return {
        status: "warn",
        description: `No sitemap could be fetched from ${resource.url}${resource.error ? ` (${resource.error})` : ""}.`,
        fix: notFound,
        evidence: [resource.url, resource.error ?? "no answer"],
      };
    }
    if (resource.status < 200 || resource.status >= 300) {
      return {
        status: "warn",
        description: `No sitemap was found: ${resource.url} answered HTTP ${resource.status}.`,
        fix: notFound,
        evidence: [resource.url, String(resource.status)],
      };
    }
    return judgeBody(resource.url, resource.body ?? "", resource.truncated);
  },
});
