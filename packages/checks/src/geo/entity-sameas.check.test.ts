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
});
