import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { corpusDir, corpusPages } from "./corpus";
import type { Handler } from "./fixture-server";

/**
 * A whole site for audits, served on loopback, made of the corpus's real pages: each page keeps
 * its content (scripts other than JSON-LD, links, canonicals, hreflang, base and robots tags
 * taken out) and gets its own title, description, self-canonical and the site's navigation.
 * robots.txt names a sitemap index, which lists a plain sitemap and a gzip one. Defects of every
 * site-check kind are planted on purpose; `planted` says which check must find which URL.
 */

/** A small page of a site whose audits are compared: a title, a description, a heading and links. */
export const comparedPage = (
  title: string,
  links: string[],
) => `<!doctype html><html lang="en"><head><title>${title}</title>
<meta name="description" content="${title}: a page of the site whose audits are compared."></head>
<body><main><h1>${title}</h1><p>Words on the page for the checks to read.</p>
${links.map((link) => `<a href="${link}">${link}</a>`).join(" ")}</main></body></html>`;

export type PlantedDefect = { check: string; url: string };

export type AuditSite = {
  routes: Record<string, Handler>;
  /** every page URL path a complete audit finds */
  paths: string[];
  planted: PlantedDefect[];
};

const CORPUS_MAX_BYTES = 120_000;
const CORPUS_MIN_BYTES = 2_000;

/** corpus pages small enough to keep an audit of hundreds of them quick */
const corpusBodies = (): Array<{ name: string; html: string }> =>
  corpusPages()
    .map((name) => ({ name, file: join(corpusDir(), "pages", name, "index.html") }))
    .filter(({ file }) => {
      const size = statSync(file).size;
      return size >= CORPUS_MIN_BYTES && size <= CORPUS_MAX_BYTES;
    })
    .map(({ name, file }) => ({ name, html: readFileSync(file, "utf8") }));

/** The corpus page without what would make it another site's: its scripts, links and head annotations. */
const stripped = (html: string): string =>
  html
    .replace(/<script\b(?![^>]*application\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<noscript\b[^>]*>[\s\S]*?<\/noscript\s*>/gi, "")
    .replace(/<(?:link|base)\b[^>]*>/gi, "")
    .replace(/<meta\b[^>]*(?:name|http-equiv)\s*=\s*["']?(?:robots|googlebot|description|refresh)\b[^>]*>/gi, "")
    .replace(/<title\b[^>]*>[\s\S]*?<\/title\s*>/gi, "")
    .replace(/<iframe\b[^>]*>[\s\S]*?<\/iframe\s*>/gi, "")
    .replace(/(<(?:a|area)\b[^>]*?)\s(?:href|ping)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, "$1")
    .replace(/(<(?:a|area)\b[^>]*?)\s(?:href|ping)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, "$1");

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

type PageSpec = {
  title: string;
  description: string;
  /** absolute canonical, or null for none */
  canonical: string | null;
  links: string[];
  hreflang?: Array<{ lang: string; href: string }>;
  noindex?: boolean;
};

const withHead = (body: string, origin: string, spec: PageSpec): string => {
  const head = [
    `<title>${escapeHtml(spec.title)}</title>`,
    `<meta name="description" content="${escapeHtml(spec.description)}">`,
    spec.canonical ? `<link rel="canonical" href="${spec.canonical}">` : "",
    ...(spec.hreflang ?? []).map(({ lang, href }) => `<link rel="alternate" hreflang="${lang}" href="${href}">`),
    spec.noindex ? '<meta name="robots" content="noindex">' : "",
  ].join("");
  const nav = `<nav>${spec.links.map((link, i) => `<a href="${link.startsWith("/") ? `${origin}${link}` : link}">Related page ${i + 1}</a>`).join(" ")}</nav>`;
  let html = body;
  html = /<head\b[^>]*>/i.test(html)
    ? html.replace(/<head\b[^>]*>/i, (tag) => `${tag}${head}`)
    : `<head>${head}</head>${html}`;
  html = /<\/body\s*>/i.test(html) ? html.replace(/<\/body\s*>/i, `${nav}</body>`) : `${html}${nav}`;
  return html;
};

const page =
  (html: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
  };
const status =
  (code: number, body = "gone"): Handler =>
  (_req, res) => {
    res
      .writeHead(code, { "content-type": "text/html; charset=utf-8" })
      .end(`<!doctype html><title>${code}</title><p>${body}</p>`);
  };
const redirect =
  (to: string): Handler =>
  (_req, res) => {
    res.writeHead(301, { location: to }).end();
  };
const text =
  (body: string | Buffer, type: string): Handler =>
  (_req, res) => {
    res.writeHead(200, { "content-type": type }).end(body);
  };

const urlset = (origin: string, paths: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((path) => `  <url><loc>${origin}${path}</loc></url>`)
    .join("\n")}\n</urlset>\n`;

/**
 * The site at `origin` with `count` numbered pages (/p/1 …) listed in its sitemaps, a home page,
 * a chain of ten pages only links lead to (/extra/1 …), and the planted defects.
 */
export const buildAuditSite = (origin: string, count: number): AuditSite => {
  const corpus = corpusBodies();
  const routes: Record<string, Handler> = {};
  const paths: string[] = [];
  const planted: PlantedDefect[] = [];
  const plant = (check: string, path: string) => planted.push({ check, url: `${origin}${path}` });
  const numbered = Array.from({ length: count }, (_, i) => i + 1);
  const specs = new Map<string, PageSpec>();
  const add = (path: string, spec: PageSpec) => {
    specs.set(path, spec);
    paths.push(path);
  };

  add("/", {
    title: "The corpus site: real pages gathered for a whole-site audit",
    description: "A home page linking to the first numbered pages and to the pages only links lead to.",
    canonical: `${origin}/`,
    links: ["/p/1", "/p/2", "/p/3", "/extra/1"],
  });
  for (const n of numbered) {
    add(`/p/${n}`, {
      title: `Corpus page number ${n}: an article kept for the audit`,
      description: `The ${n}th page of the corpus site, with its own description so that no two pages share one.`,
      canonical: `${origin}/p/${n}`,
      links: [`/p/${(n % count) + 1}`, `/p/${((n + 1) % count) + 1}`, "/"],
    });
  }
  for (let k = 1; k <= 10; k++) {
    add(`/extra/${k}`, {
      title: `A page only links lead to, number ${k} of ten`,
      description: `The ${k}th page outside the sitemap: the audit finds it by following links, breadth-first.`,
      canonical: `${origin}/extra/${k}`,
      links: k < 10 ? [`/extra/${k + 1}`] : ["/"],
    });
  }
  const edit = (path: string, change: Partial<PageSpec>) => {
    const spec = specs.get(path);
    if (!spec) throw new Error(`no page ${path}`);
    specs.set(path, { ...spec, ...change, links: [...spec.links, ...(change.links ?? [])] });
  };

  // duplicate titles and descriptions
  edit("/p/20", { title: "Twin pages share this title by mistake" });
  edit("/p/21", { title: "Twin pages share this title by mistake" });
  plant("duplicate-titles", "/p/20");
  edit("/p/30", { description: "This description was pasted onto two pages of the corpus site." });
  edit("/p/31", { description: "This description was pasted onto two pages of the corpus site." });
  plant("duplicate-descriptions", "/p/30");
  // broken internal links: a 404 and a 500
  edit("/p/40", { links: ["/missing-page"] });
  edit("/p/41", { links: ["/server-error"] });
  routes["/missing-page"] = status(404);
  routes["/server-error"] = status(500, "the server broke");
  paths.push("/missing-page", "/server-error");
  plant("broken-internal-links", "/missing-page");
  plant("broken-internal-links", "/server-error");
  // canonicals to a redirect and to a 404
  edit("/p/50", { canonical: `${origin}/moved` });
  routes["/moved"] = redirect("/p/52");
  edit("/p/51", { canonical: `${origin}/no-such-canonical` });
  routes["/no-such-canonical"] = status(404);
  paths.push("/moved", "/no-such-canonical");
  plant("canonical-targets", "/moved");
  plant("canonical-targets", "/no-such-canonical");
  // sitemap URLs: noindex, redirected, blocked, missing
  edit("/p/60", { noindex: true });
  plant("sitemap-noindex", "/p/60");
  routes["/old-p/70"] = redirect("/p/70");
  paths.push("/old-p/70");
  plant("sitemap-redirects", "/old-p/70");
  routes["/private/report"] = page("<!doctype html><title>Private report</title><p>Not for crawlers.</p>");
  paths.push("/private/report");
  plant("sitemap-blocked", "/private/report");
  routes["/p/deleted"] = status(404);
  paths.push("/p/deleted");
  plant("sitemap-missing", "/p/deleted");
  // a redirect chain of two hops, linked from a page
  edit("/p/80", { links: ["/chain-start"] });
  routes["/chain-start"] = redirect("/chain-middle");
  routes["/chain-middle"] = redirect("/p/81");
  paths.push("/chain-start");
  plant("redirect-chains", "/chain-start");
  // hreflang: one pair without the return link, one pair that confirms itself
  edit("/p/90", {
    hreflang: [
      { lang: "en", href: `${origin}/p/90` },
      { lang: "de", href: `${origin}/p/91` },
    ],
  });
  plant("hreflang-return-links", "/p/90");
  edit("/p/92", {
    hreflang: [
      { lang: "en", href: `${origin}/p/92` },
      { lang: "fr", href: `${origin}/p/93` },
    ],
  });
  edit("/p/93", {
    hreflang: [
      { lang: "en", href: `${origin}/p/92` },
      { lang: "fr", href: `${origin}/p/93` },
    ],
  });
  // llms.txt linking to a page that does not exist
  routes["/llms-gone"] = status(404);
  plant("llms-txt-links", "/llms-gone");

  let i = 0;
  for (const [path, spec] of specs) {
    const source = corpus[i++ % corpus.length];
    if (!source) throw new Error("the corpus has no page small enough");
    routes[path] = page(withHead(stripped(source.html), origin, spec));
  }

  const sitemapPaths = ["/", ...numbered.map((n) => `/p/${n}`), "/old-p/70", "/private/report", "/p/deleted"];
  const half = Math.ceil(sitemapPaths.length / 2);
  routes["/robots.txt"] = text(
    `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap_index.xml\n`,
    "text/plain; charset=utf-8",
  );
  routes["/sitemap_index.xml"] = text(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>${origin}/sitemaps/pages-1.xml</loc></sitemap>\n  <sitemap><loc>${origin}/sitemaps/pages-2.xml.gz</loc></sitemap>\n</sitemapindex>\n`,
    "application/xml",
  );
  routes["/sitemaps/pages-1.xml"] = text(urlset(origin, sitemapPaths.slice(0, half)), "application/xml");
  routes["/sitemaps/pages-2.xml.gz"] = text(gzipSync(urlset(origin, sitemapPaths.slice(half))), "application/gzip");
  routes["/llms.txt"] = text(
    `# The corpus site\n\n> Real pages gathered for a whole-site audit.\n\n## Pages\n\n- [Home](${origin}/): the start\n- [First page](${origin}/p/1): an article\n- [A page that was removed](${origin}/llms-gone): listed by mistake\n`,
    "text/plain; charset=utf-8",
  );
  return { routes, paths, planted };
};
