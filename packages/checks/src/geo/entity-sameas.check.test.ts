import { judge } from "../fixture";
import { entitySameas } from "./entity-sameas.check";

const page = (head: string) => `<html><head>${head}</head><body></body></html>`;
const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe("entity-sameas", () => {
  it("passes with two or more sameAs profiles", () => {
    const data = {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: "Acme",
      sameAs: ["https://en.wikipedia.org/wiki/Acme", "https://www.linkedin.com/company/acme"],
    };
    const verdict = judge(entitySameas, page(jsonLd(data)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(
      /Organization "Acme" has 2 sameAs profiles \(en\.wikipedia\.org, linkedin\.com\)/,
    );
  });

  it("merges the nodes of one @id and counts subtypes", () => {
    const data = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "NewsMediaOrganization", "@id": "#org", name: "Daily", sameAs: "https://x.com/daily" },
        { "@type": "NewsMediaOrganization", "@id": "#org", sameAs: ["https://www.wikidata.org/wiki/Q1"] },
      ],
    };
    expect(judge(entitySameas, page(jsonLd(data))).status).toBe("pass");
  });

  it("warns with one profile", () => {
    const data = { "@context": "https://schema.org", "@type": "Person", name: "Jane", sameAs: "https://x.com/jane" };
    const verdict = judge(entitySameas, page(jsonLd(data)));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/Person "Jane" has one sameAs profile \(x\.com\)/);
  });

  it("fails without an entity, or with one that has no profiles", () => {
    expect(judge(entitySameas, page("")).description).toMatch(/JSON-LD has no Organization or Person/);
    const data = { "@context": "https://schema.org", "@type": "Organization", name: "Acme", sameAs: "not a url" };
    const verdict = judge(entitySameas, page(jsonLd(data)));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/"Acme" has no sameAs profiles/);
  });

  it("proposes the profiles the page links outside its article, or asks the owner for them", () => {
    const linked = judge(
      entitySameas,
      `<html><body><header><a href="https://twitter.com/acme">Twitter</a><a href="https://twitter.com/intent/tweet?text=x">Share</a></header><article><h1>News</h1><p>By <a href="https://x.com/jane">Jane</a></p></article><footer><a href="https://www.facebook.com/acmenews">Facebook</a></footer></body></html>`,
    );
    expect(linked.fix).toBe(
      'Add Organization (or, for a personal site, Person) JSON-LD with "sameAs": ["https://twitter.com/acme", "https://www.facebook.com/acmenews"], the profiles the page links, and its Wikidata and Wikipedia entries if it has them.',
    );
    const none = judge(entitySameas, page(""));
    expect(none.fix).toContain("the page links none, so its owner must supply them");
    expect(none.fix).not.toContain("Q...");
  });
});
