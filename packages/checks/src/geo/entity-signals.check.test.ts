import { judge } from "../fixture";
import { author, entitySameas, trustPages } from "./entity-signals.check";

const page = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;
const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe("entity-sameas", () => {
  it("passes with two or more sameAs profiles", () => {
    const verdict = judge(
      entitySameas,
      page(
        jsonLd({
          "@context": "https://schema.org",
          "@type": "Organization",
          name: "Acme",
          sameAs: ["https://en.wikipedia.org/wiki/Acme", "https://www.linkedin.com/company/acme"],
        }),
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/Acme has 2 sameAs/);
  });

  it("warns with one, in a @graph", () => {
    const data = {
      "@context": "https://schema.org",
      "@graph": [{ "@type": "Person", name: "Jane", sameAs: "https://x.com/jane" }],
    };
    expect(judge(entitySameas, page(jsonLd(data))).status).toBe("warn");
  });

  it("fails without an entity", () => {
    expect(judge(entitySameas, page("")).description).toMatch(/No Organization or Person/);
  });
});

describe("author", () => {
  it("passes with a JSON-LD author name", () => {
    const data = {
      "@context": "https://schema.org",
      "@type": "Article",
      author: { "@type": "Person", name: "Jane Doe" },
    };
    expect(judge(author, page(jsonLd(data))).description).toMatch(/JSON-LD author "Jane Doe"/);
  });

  it("passes with meta author, rel=author or itemprop=author", () => {
    expect(judge(author, page('<meta name="author" content="Jane Doe">')).status).toBe("pass");
    expect(judge(author, page("", '<a rel="author" href="/jane">Jane Doe</a>')).status).toBe("pass");
    expect(judge(author, page("", '<span itemprop="author"><span itemprop="name">Jane</span></span>')).status).toBe(
      "pass",
    );
  });

  it("fails without one, and a bare URL is not a name", () => {
    expect(judge(author, page("", "<p>By the team</p>")).status).toBe("fail");
    const data = { "@context": "https://schema.org", "@type": "Article", author: "https://example.com/jane" };
    expect(judge(author, page(jsonLd(data))).status).toBe("fail");
  });
});

describe("trust-pages", () => {
  it("passes with about and contact links", () => {
    expect(
      judge(trustPages, page("", '<footer><a href="/about-us">About</a> <a href="/kontakt">Kontakt</a></footer>'))
        .status,
    ).toBe("pass");
  });

  it("warns with one of them", () => {
    const verdict = judge(trustPages, page("", '<a href="/company/about">Who we are</a>'));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/not to a contact page/);
  });

  it("counts a mailto link as contact, and fails with neither", () => {
    expect(
      judge(trustPages, page("", '<a href="/about">About</a><a href="mailto:hi@example.com">Write</a>')).status,
    ).toBe("pass");
    expect(judge(trustPages, page("", '<a href="/pricing">Pricing</a>')).status).toBe("fail");
  });
});
