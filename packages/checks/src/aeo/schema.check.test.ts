import { judge } from "../fixture";
import {
  articleSchema,
  breadcrumbSchema,
  faqSchema,
  organizationSchema,
  speakable,
  structuredData,
} from "./schema.check";

const ld = (...blocks: Array<object | string>) =>
  `<html><head>${blocks.map((b) => `<script type="application/ld+json">${typeof b === "string" ? b : JSON.stringify(b)}</script>`).join("")}</head><body><p>x</p></body></html>`;
const CTX = "https://schema.org";

describe("structured-data", () => {
  it("passes with valid blocks, a @graph included", () => {
    const verdict = judge(
      structuredData,
      ld(
        { "@context": CTX, "@type": "Article", headline: "h" },
        { "@context": CTX, "@graph": [{ "@type": "Organization" }] },
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2 valid JSON-LD blocks: Article, Organization/);
  });

  it("fails without JSON-LD", () => {
    expect(judge(structuredData, "<html><body></body></html>").description).toMatch(/no JSON-LD/);
  });

  it("fails when a block does not parse or lacks @context or @type", () => {
    expect(judge(structuredData, ld({ "@context": CTX, "@type": "Article" }, "{ broken")).description).toMatch(
      /block 2 does not parse/,
    );
    expect(judge(structuredData, ld({ "@type": "Article" })).description).toMatch(/no schema.org @context/);
    expect(judge(structuredData, ld({ "@context": CTX, name: "x" })).description).toMatch(/no @type/);
  });
});

describe("organization-schema", () => {
  it("passes with name, url and logo", () => {
    expect(
      judge(
        organizationSchema,
        ld({
          "@context": CTX,
          "@type": "Organization",
          name: "Acme",
          url: "https://acme.test",
          logo: "https://acme.test/l.png",
        }),
      ).status,
    ).toBe("pass");
  });

  it("warns when partial, naming what is missing", () => {
    const verdict = judge(organizationSchema, ld({ "@context": CTX, "@type": "LocalBusiness", name: "Cafe" }));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/lacks url, logo/);
  });

  it("fails without one", () => {
    expect(judge(organizationSchema, ld({ "@context": CTX, "@type": "WebPage" })).status).toBe("fail");
  });
});

describe("faq-schema", () => {
  it("passes with an answered question", () => {
    const faq = {
      "@context": CTX,
      "@type": "FAQPage",
      mainEntity: [{ "@type": "Question", name: "Why?", acceptedAnswer: { "@type": "Answer", text: "Because." } }],
    };
    expect(judge(faqSchema, ld(faq)).status).toBe("pass");
  });

  it("fails without answers or without FAQPage", () => {
    const faq = { "@context": CTX, "@type": "FAQPage", mainEntity: [{ "@type": "Question", name: "Why?" }] };
    expect(judge(faqSchema, ld(faq)).description).toMatch(/no Question with an acceptedAnswer/);
    expect(judge(faqSchema, ld({ "@context": CTX, "@type": "WebPage" })).status).toBe("fail");
  });
});

describe("article-schema", () => {
  const full = {
    "@context": CTX,
    "@type": "BlogPosting",
    headline: "H",
    author: { "@type": "Person", name: "Jane" },
    datePublished: "2026-01-01",
  };
  it("passes with headline, author and datePublished", () => {
    expect(judge(articleSchema, ld(full)).status).toBe("pass");
  });

  it("warns when partial", () => {
    const verdict = judge(articleSchema, ld({ ...full, author: undefined }));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/lacks author/);
  });

  it("fails on an <article> page without markup, and skips a page that is no article", () => {
    expect(judge(articleSchema, "<html><body><article><p>x</p></article></body></html>").status).toBe("fail");
    expect(judge(articleSchema, "<html><body><p>x</p></body></html>").status).toBe("skip");
  });
});

describe("breadcrumb-schema and speakable", () => {
  it("pass with their markup", () => {
    const crumbs = {
      "@context": CTX,
      "@type": "BreadcrumbList",
      itemListElement: [{ "@type": "ListItem", position: 1, name: "Home" }],
    };
    expect(judge(breadcrumbSchema, ld(crumbs)).description).toMatch(/1 item/);
    const speak = {
      "@context": CTX,
      "@type": "WebPage",
      speakable: { "@type": "SpeakableSpecification", cssSelector: [".s"] },
    };
    expect(judge(speakable, ld(speak)).status).toBe("pass");
  });

  it("fail without it", () => {
    expect(judge(breadcrumbSchema, ld({ "@context": CTX, "@type": "WebPage" })).status).toBe("fail");
    expect(judge(speakable, ld({ "@context": CTX, "@type": "WebPage" })).status).toBe("fail");
  });
});
