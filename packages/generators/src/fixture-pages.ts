import { snapshotOf } from "@scan/checks/testing";
import type { Snapshot, TextResource } from "@scan/contract";

/** Pages and site files for generator tests, served as https://shop.example.com. */
export const ORIGIN = "https://shop.example.com";

export const PRODUCT_PAGE = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Trail Runner 3 shoes | Northwind Outfitters</title>
<meta name="description" content="The Trail Runner 3 is a light trail shoe with a grippy sole, made for long runs on rough ground.">
<meta property="og:site_name" content="Northwind Outfitters">
<meta property="og:title" content="Trail Runner 3">
<meta property="og:image" content="/img/trail-runner-3.jpg">
<link rel="canonical" href="${ORIGIN}/shoes/trail-runner-3">
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Product", "name": "Trail Runner 3", "description": "A light trail shoe with a <b>grippy</b> sole.",
 "brand": {"@type": "Brand", "name": "Northwind"}, "sku": "TR3-42",
 "offers": {"@type": "Offer", "price": 129.5, "priceCurrency": "EUR", "availability": "https://schema.org/InStock"},
 "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.6", "reviewCount": "212"}}
</script>
</head><body>
<header><a href="/"><img src="/img/northwind-logo.png" alt="Northwind Outfitters logo"></a>
<nav aria-label="Main"><a href="/shoes">Shoes</a> <a href="/jackets">Jackets</a> <a href="/about">About us</a> <a href="https://twitter.com/northwind">Twitter</a></nav></header>
<nav class="breadcrumbs"><a href="/">Home</a> › <a href="/shoes">Shoes</a> › <span>Trail Runner 3</span></nav>
<main>
<h1>Trail Runner 3</h1>
<p>The Trail Runner 3 is our lightest trail shoe yet, built for long runs on rough and muddy ground.</p>
<h2>Features</h2>
<ul><li>Grippy 5 mm lugs</li><li>Rock plate under the forefoot</li><li>Weighs 280 g in size 42</li></ul>
<h2>How does the sizing run?</h2>
<p>The Trail Runner 3 runs true to size for most runners, so order the size you wear in other running shoes.</p>
<h2>Can I wash the shoes in a machine?</h2>
<p>Yes, wash them cold on a gentle cycle with the insoles taken out, then let them dry in the air.</p>
<h2>Care and repairs</h2>
<p>We repair worn soles for free within two years of purchase. See the <a href="/repairs">repair service</a> page.</p>
</main>
<footer><a href="/privacy">Privacy</a> <a href="/contact">Contact</a></footer>
</body></html>`;

export const ARTICLE_PAGE = `<!doctype html>
<html lang="en-GB"><head>
<meta charset="utf-8">
<title>Why winter breaks water mains - City Desk</title>
<meta name="description" content="Freeze-thaw cycles crack old pipes; here is how the city keeps up.">
<meta property="og:type" content="article">
<meta name="author" content="Jane Doe">
<meta property="article:published_time" content="2026-01-15T08:00:00+00:00">
</head><body>
<article>
<h1>Why winter breaks water mains</h1>
<p>Every winter the city sees hundreds of water main breaks, most of them in pipes laid before 1930.</p>
<h2>The cold is not the problem</h2>
<p>Pipes crack when the ground freezes and thaws again. In January there were 120 breaks, twice the summer rate. Crews work around the clock.</p>
<h2>Replacing old pipes</h2>
<p>The city replaces about 100 miles of pipe each year. At that pace the work takes decades.</p>
</article>
</body></html>`;

export const site = (path: string, body: string | null, status = 200, contentType = "text/plain"): TextResource => ({
  url: `${ORIGIN}${path}`,
  status,
  contentType,
  body,
  truncated: false,
  error: null,
});

/** A snapshot of `html` at `path` with no robots.txt, llms.txt or sitemap unless given. */
export const pageAt = (path: string, html: string, overrides: Partial<Snapshot> = {}): Snapshot =>
  snapshotOf(html, {
    requestedUrl: `${ORIGIN}${path}`,
    finalUrl: `${ORIGIN}${path}`,
    robotsTxt: site("/robots.txt", "not found", 404),
    llmsTxt: site("/llms.txt", "not found", 404),
    sitemap: site("/sitemap.xml", "not found", 404),
    ...overrides,
  });
