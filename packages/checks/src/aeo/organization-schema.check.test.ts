import { judge, judgeCorpusPage } from "../fixture";
import { organizationSchema } from "./organization-schema.check";

const page = (json: string) =>
  `<html><head><script type="application/ld+json">${json}</script></head><body></body></html>`;

describe("organization-schema", () => {
  it("passes with name, url and logo, also for a nested publisher of a subtype", () => {
    const verdict = judge(
      organizationSchema,
      page(
        '{"@context":"https://schema.org","@type":"Article","publisher":{"@type":"NewsMediaOrganization","name":"Daily","url":"https://daily.example","logo":{"@type":"ImageObject","url":"https://daily.example/l.png"}}}',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe('NewsMediaOrganization "Daily" has name, url and logo.');
  });

  it("warns when a field is missing, judging the most complete node", () => {
    const verdict = judge(
      organizationSchema,
      page(
        '[{"@context":"https://schema.org","@type":"Organization"},{"@context":"https://schema.org","@type":"ShoeStore","name":"Feet","url":"https://feet.example"}]',
      ),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toBe('ShoeStore "Feet" lacks logo.');
    expect(verdict.fix).toMatch(/Add logo/);
  });

  it("fails without an organization; a Service is none", () => {
    const verdict = judge(
      organizationSchema,
      page(
        '[{"@context":"https://schema.org","@type":"Person","name":"Ann"},{"@context":"https://schema.org","@type":"TaxiService","name":"Cab"}]',
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/No Organization/);
  });

  it("proposes the site's name its <title> ends with and its logo image, or asks the owner for them", () => {
    const named = judge(
      organizationSchema,
      '<html><head><title>Embryo drama taking a detour | Page Six</title></head><body><img src="/assets/logo-pagesix.svg" alt="Page Six"><h1>Embryo drama</h1></body></html>',
    );
    expect(named.fix).toBe(
      'Add Organization (or LocalBusiness) JSON-LD, at least on the home page and as the publisher of articles, with "name": "Page Six" (the site\'s name, from the end of its <title>), "url": "https://example.com/", "logo": "https://example.com/assets/logo-pagesix.svg" (the page\'s logo image).',
    );
    const headline = judge(
      organizationSchema,
      "<html><head><title>The failure of public schooling in one chart</title></head><body></body></html>",
    );
    expect(headline.fix).toContain('"name" (the page names no site, so its owner must supply it)');
    expect(headline.fix).toContain('"logo" (the page shows no logo image, so its owner must supply one)');
  });

  it("reads an Organization in microdata and RDFa too, saying which, and advises JSON-LD", () => {
    const microdata = `<html><body><div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme</span><a itemprop="url" href="https://acme.example/">home</a><img itemprop="logo" src="/logo.png" alt=""></div></body></html>`;
    const verdict = judge(organizationSchema, microdata);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe('Organization "Acme" (microdata) has name, url and logo.');
    const rdfa = `<html><body><div vocab="https://schema.org/" typeof="Organization"><span property="name">Acme</span></div></body></html>`;
    const partial = judge(organizationSchema, rdfa);
    expect(partial.description).toBe('Organization "Acme" (RDFa) lacks url, logo.');
    expect(partial.fix).toMatch(/^Add Organization JSON-LD with "name", "url" and "logo"/);
  });

  it("guardian-1, nytimes-3: the publisher's microdata Organization counts; an unreadable JSON-LD one is the fix", () => {
    const guardian = judgeCorpusPage(organizationSchema, "guardian-1");
    expect(guardian.status).toBe("warn");
    expect(guardian.description).toMatch(
      /^Organization "The Guardian" \(microdata\) lacks url, logo\. Its JSON-LD declares Organization "The Guardian" too, unreadable/,
    );
    expect(guardian.fix).toMatch(/^Remove the <!\[CDATA\[/);
    expect(judgeCorpusPage(organizationSchema, "nytimes-3").description).toBe(
      'NewsMediaOrganization "The New York Times Company" (microdata) has name, url and logo.',
    );
  });
});
