import type { IncomingMessage, ServerResponse } from "node:http";
import { type FixtureServer, html, startFixtureServer, text } from "../../support/fixture-server";

/**
 * The loopback sites the browser tests audit. The audited site is four pages: the home page
 * links to two guides and to /old-guide, which answers 404, so an audit that excludes
 * /old-guide finds no broken link and the next one without the exclusion does (a regression).
 * Its /hooks/alerts takes the regression alerts (204), and /services/T0E2E/B0E2E/slacktokenvalue
 * their Slack messages (200 "ok"). The held site keeps its robots.txt
 * unanswered until /release is asked for, so an audit of it stays `discovering` as long as a
 * test needs it to.
 */

const page = (title: string, description: string, body: string) => `<!doctype html><html lang="en"><head>
<meta charset="utf-8"><title>${title}</title>
<meta name="description" content="${description}">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const HOME = page(
  "Cold brew at home: ratios, grinds and timings",
  "Guides to brewing cold brew at home: the ratio of coffee to water, how coarse to grind, and how long to steep.",
  `<p>Cold brew is coffee steeped in cold water for hours. These guides cover the three things that matter.</p>
<ul><li><a href="/guides/ratio">The ratio of coffee to water</a></li>
<li><a href="/guides/grind">How coarse to grind</a></li>
<li><a href="/old-guide">Our first guide (2019)</a></li></ul>`,
);
const RATIO = page(
  "What ratio of coffee to water makes good cold brew?",
  "One part coffee to eight parts water for drinking straight, one to four for a concentrate: how to choose.",
  `<h2>What ratio should I use?</h2><p>One part coffee to eight parts water, steeped for sixteen hours.</p>
<p><a href="/">All cold brew guides</a></p>`,
);
const GRIND = page(
  "How coarse should coffee be ground for cold brew?",
  "Grind as coarse as raw sugar: finer grinds over-extract in sixteen hours and cloud the brew.",
  `<h2>How coarse is coarse?</h2><p>About the size of raw sugar crystals; a burr grinder keeps it even.</p>
<p><a href="/">All cold brew guides</a></p>`,
);

export type AuditSites = { audited: FixtureServer; held: FixtureServer; close: () => Promise<void> };

/** the longest the held site keeps a robots.txt request waiting, whatever happens */
const HOLD_CAP_MS = 30_000;

export const startAuditSites = async (): Promise<AuditSites> => {
  let origin = "";
  const audited = await startFixtureServer({
    "/": html(HOME),
    "/guides/ratio": html(RATIO),
    "/guides/grind": html(GRIND),
    "/robots.txt": (req, res) => text(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`)(req, res),
    "/sitemap.xml": (_req, res) => {
      const urls = ["/", "/guides/ratio", "/guides/grind"].map((path) => `<url><loc>${origin}${path}</loc></url>`);
      res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`);
    },
    "/hooks/alerts": (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    },
    // answers as a Slack incoming webhook does: 200 "ok"
    "/services/T0E2E/B0E2E/slacktokenvalue": (req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "text/html" }).end("ok"));
    },
  });
  origin = audited.origin;

  const waiting = new Set<() => void>();
  const held = await startFixtureServer({
    "/": html(HOME),
    "/robots.txt": (req, res) => {
      const answer = () => {
        waiting.delete(answer);
        clearTimeout(cap);
        if (!res.writableEnded) text("User-agent: *\nAllow: /\n")(req, res);
      };
      const cap = setTimeout(answer, HOLD_CAP_MS);
      waiting.add(answer);
    },
    "/release": (req, res) => {
      for (const answer of [...waiting]) answer();
      text("released")(req, res);
    },
  });

  return {
    audited,
    held,
    close: async () => {
      for (const answer of [...waiting]) answer();
      await audited.close();
      await held.close();
    },
  };
};
