import type { CheckDefinition } from "@scan/checks";
import {
  articleSchema,
  author,
  breadcrumbSchema,
  faqSchema,
  organizationSchema,
  preparePage,
  publishDate,
  structuredData,
} from "@scan/checks";
import { FIXED_SCAN_TIME } from "@scan/checks/testing";
import { ARTICLE_PAGE, ORIGIN, PRODUCT_PAGE, pageAt } from "./fixture-pages";
import { generateJsonLd } from "./json-ld";
import { pageFacts } from "./page-facts";

const generated = (html: string, path = "/page") =>
  generateJsonLd(pageFacts(preparePage(pageAt(path, html), FIXED_SCAN_TIME)));

/** The verdict of a check on the page with its JSON-LD replaced by the generated block. */
const judgeWith = (check: CheckDefinition, html: string, path = "/page") => {
  const script = generated(html, path).html;
  const page = html
    .replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/g, "")
    .replace("</head>", `${script}</head>`);
  return check.run(preparePage(pageAt(path, page), FIXED_SCAN_TIME)).status;
};

const PRODUCT_PATH = "/shoes/trail-runner-3";

describe("generateJsonLd", () => {
  it("describes a product page from its own data and carries its Product over", () => {
    const out = generated(PRODUCT_PAGE, PRODUCT_PATH);
    expect(out.types).toEqual(["Organization", "WebSite", "WebPage", "FAQPage", "BreadcrumbList", "Product"]);
    expect(out.addresses).toEqual(["structured-data", "organization-schema", "faq-schema", "breadcrumb-schema"]);
    const [organization, website, webpage, faq, breadcrumb, product] = out.data["@graph"];
    expect(organization).toEqual({
      "@type": "Organization",
      "@id": `${ORIGIN}/#organization`,
      name: "Northwind Outfitters",
      url: `${ORIGIN}/`,
      logo: `${ORIGIN}/img/northwind-logo.png`,
    });
    expect(website).toEqual({
      "@type": "WebSite",
      "@id": `${ORIGIN}/#website`,
      url: `${ORIGIN}/`,
      name: "Northwind Outfitters",
      inLanguage: "en",
      publisher: { "@id": `${ORIGIN}/#organization` },
    });
    expect(webpage).toEqual({
      "@type": "WebPage",
      "@id": `${ORIGIN}/shoes/trail-runner-3`,
      url: `${ORIGIN}/shoes/trail-runner-3`,
      name: "Trail Runner 3 shoes | Northwind Outfitters",
      description: "The Trail Runner 3 is a light trail shoe with a grippy sole, made for long runs on rough ground.",
      inLanguage: "en",
      isPartOf: { "@id": `${ORIGIN}/#website` },
      breadcrumb: { "@id": `${ORIGIN}/shoes/trail-runner-3#breadcrumb` },
    });
    expect(faq?.mainEntity).toEqual([
      {
        "@type": "Question",
        name: "How does the sizing run?",
        acceptedAnswer: {
          "@type": "Answer",
          text: "The Trail Runner 3 runs true to size for most runners, so order the size you wear in other running shoes.",
        },
      },
      {
        "@type": "Question",
        name: "Can I wash the shoes in a machine?",
        acceptedAnswer: {
          "@type": "Answer",
          text: "Yes, wash them cold on a gentle cycle with the insoles taken out, then let them dry in the air.",
        },
      },
    ]);
    expect(breadcrumb?.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: `${ORIGIN}/` },
      { "@type": "ListItem", position: 2, name: "Shoes", item: `${ORIGIN}/shoes` },
    ]);
    expect(product).toMatchObject({ "@type": "Product", name: "Trail Runner 3", sku: "TR3-42" });
    expect(product?.["@context"]).toBeUndefined();
  });

  it.each([structuredData, organizationSchema, faqSchema, breadcrumbSchema].map((check) => [check.id, check] as const))(
    "makes %s pass on the product page",
    (_id, check) => {
      expect(judgeWith(check, PRODUCT_PAGE, PRODUCT_PATH)).toBe("pass");
    },
  );

  it("marks up an article with its author and date, and leaves out what the page does not say", () => {
    const out = generated(ARTICLE_PAGE.replace(" - City Desk", ""), "/news/mains");
    expect(out.types).toEqual(["WebSite", "WebPage", "Article"]);
    const article = out.data["@graph"][2];
    expect(article).toEqual({
      "@type": "Article",
      "@id": `${ORIGIN}/news/mains#article`,
      headline: "Why winter breaks water mains",
      description: "Freeze-thaw cycles crack old pipes; here is how the city keeps up.",
      author: { "@type": "Person", name: "Jane Doe" },
      datePublished: "2026-01-15T08:00:00+00:00",
      inLanguage: "en-GB",
      mainEntityOfPage: { "@id": `${ORIGIN}/news/mains` },
    });
    // no site name on the page: no Organization, no publisher, no WebSite name
    expect(out.data["@graph"][0]).toEqual({
      "@type": "WebSite",
      "@id": `${ORIGIN}/#website`,
      url: `${ORIGIN}/`,
      inLanguage: "en-GB",
    });
    expect(out.addresses).toEqual(["structured-data", "article-schema", "author", "publish-date"]);
    expect(out.notes).toContain(
      "No Organization: the page names no site or publisher (og:site_name, application-name or JSON-LD); add one with name, url and logo.",
    );
    for (const check of [structuredData, articleSchema, author, publishDate]) {
      expect([check.id, judgeWith(check, ARTICLE_PAGE, "/news/mains")]).toEqual([check.id, "pass"]);
    }
  });

  it("keeps the page's own values and @ids over its own reading", () => {
    const html = `<html><head><title>T</title><meta property="og:site_name" content="Other Name">
<script type="application/ld+json">{"@context":"http://schema.org","@graph":[
 {"@type":"NewsMediaOrganization","@id":"https://shop.example.com/#org","name":"Daily Shop","sameAs":["https://x.com/ds","https://fb.com/ds"]},
 {"@type":"Event","name":"Sale","organizer":{"@id":"https://shop.example.com/#org"}}]}</script></head><body><p>x</p></body></html>`;
    const out = generated(html);
    const [organization, , , event] = out.data["@graph"];
    expect(organization).toEqual({
      "@type": "NewsMediaOrganization",
      "@id": `${ORIGIN}/#org`,
      name: "Daily Shop",
      sameAs: ["https://x.com/ds", "https://fb.com/ds"],
      url: `${ORIGIN}/`,
    });
    expect(event).toEqual({ "@type": "Event", name: "Sale", organizer: { "@id": `${ORIGIN}/#org` } });
    expect(out.notes.some((note) => note.startsWith("Organization has no logo"))).toBe(true);
  });

  it("unwraps CDATA-wrapped blocks, drops broken ones and foreign vocabularies, and says so", () => {
    const html = `<html><head>
<script type="application/ld+json">//<![CDATA[
{"@context":"https://schema.org","@type":"Organization","name":"Wrapped Co","logo":"https://shop.example.com/w.png"}
//]]></script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Thing",</script>
<script type="application/ld+json">{"@context":"https://example.org/vocab","@type":"Gadget","name":"G"}</script>
</head><body><p>x</p></body></html>`;
    const out = generated(html);
    expect(out.types).toEqual(["Organization", "WebSite", "WebPage"]);
    expect(out.data["@graph"][0]).toMatchObject({ name: "Wrapped Co", logo: "https://shop.example.com/w.png" });
    expect(out.notes).toEqual([
      "JSON-LD block 1 of the page is wrapped in <![CDATA[, so no engine can read it: remove that block (or the wrapper around its JSON); this block carries its data over, unwrapped.",
      expect.stringMatching(/^JSON-LD block 2 of the page does not parse/),
      "JSON-LD block 3 uses another vocabulary than schema.org; it is not carried over.",
    ]);
  });

  it("marks up no FAQ for a single question or for titles that only open with a wh-word", () => {
    const html = `<html><body><main>
<h2>What we learned this year</h2><p>We learned a great deal about the many ways our customers use the shop.</p>
<h2>How a small shop grew</h2><p>It grew slowly and steadily over ten years of hard work by the whole team.</p>
<h2>Do you ship abroad?</h2><p>Yes, we ship to every country in the European Union within five working days.</p>
</main></body></html>`;
    expect(generated(html).types).not.toContain("FAQPage");
  });

  it("marks up the Article of a page that declares one in microdata, though no <article> stands for it", () => {
    const html = `<html lang="en"><head><title>Notes on tides</title><meta property="og:site_name" content="Tide Notes"></head><body><div itemscope itemtype="https://schema.org/BlogPosting"><h1 itemprop="headline">Notes on tides</h1><p>By Jane Doe</p><p>Tides rise and fall twice a day along most coasts, pulled by the moon and the sun in turn.</p></div></body></html>`;
    const out = generated(html);
    expect(out.types).toContain("Article");
    expect(out.addresses).toContain("article-schema");
  });

  it("escapes markup in the script so that a value cannot close it", () => {
    const html = `<html><head><title>&lt;/script&gt;&lt;script&gt;alert(1)</title></head><body><p>x</p></body></html>`;
    const out = generated(html);
    expect(out.html).not.toMatch(/<\/script>[\s\S]*<\/script>/);
    expect(out.html).toContain("\\u003c/script>");
    expect(judgeWith(structuredData, html)).toBe("pass");
  });
});
