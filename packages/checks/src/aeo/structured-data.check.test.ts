import { judge } from "../fixture";
import { structuredData } from "./structured-data.check";

const page = (...blocks: string[]) =>
  `<html><head>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join("")}</head><body></body></html>`;

describe("structured-data", () => {
  it("passes with valid schema.org JSON-LD, @graph members included", () => {
    const verdict = judge(
      structuredData,
      page(
        '{"@context":"https://schema.org","@type":"Organization","name":"Acme"}',
        '{"@context":{"@vocab":"http://schema.org/"},"@graph":[{"@type":"WebPage"},{"@type":"schema:BreadcrumbList"}]}',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      "2 valid JSON-LD blocks with schema.org types Organization, WebPage, BreadcrumbList.",
    );
  });

  it("fails without JSON-LD", () => {
    const verdict = judge(structuredData, "<html><body><p>Hi</p></body></html>");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no JSON-LD/);
  });

  it("fails when a block does not parse", () => {
    const verdict = judge(
      structuredData,
      page('{"@context":"https://schema.org","@type":"Thing"}', '{"@type": "Thing",}'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/^2 JSON-LD blocks, but block 2 is not valid JSON/);
  });

  it("names a CDATA wrapper as the reason a block does not parse, what it declares, and to remove it", () => {
    const verdict = judge(structuredData, page('<![CDATA[ {"@context":"https://schema.org","@type":"Thing"} ]]>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe(
      "1 JSON-LD block, but block 1 (Thing) is present but unreadable: <![CDATA[ wraps it, and JSON parsers do not strip it.",
    );
    expect(verdict.fix).toBe(
      "Remove the <![CDATA[ ... ]]> (or <!-- ... -->) wrapper around JSON-LD block 1 (its Thing), leaving bare JSON inside the <script>.",
    );
  });

  it("fails without a schema.org @context or without a @type", () => {
    expect(judge(structuredData, page('{"@context":"https://example.org","@type":"Thing"}')).description).toMatch(
      /block 1 has no schema.org @context/,
    );
    expect(judge(structuredData, page('[{"@context":"https://schema.org","name":"x"}]')).description).toMatch(
      /block 1 has no @type/,
    );
    expect(judge(structuredData, page("42")).description).toMatch(/holds no object/);
  });
});

describe("structured-data: the first block with the page's own facts", () => {
  it("proposes an Article with the headline, byline and shown date of a page set as an article", () => {
    const html = `<html><head><title>Blue widgets ship | Acme News</title></head><body><article><h1>Blue widgets ship</h1><p>By Jane Roe</p><p>March 3, 2026</p><p>The blue widget ships today to every customer who ordered one.</p></article></body></html>`;
    const verdict = judge(structuredData, html);
    expect(verdict.fix).toMatch(
      /"@type": "Article".*headline "Blue widgets ship", author \{"@type": "Person", "name": "Jane Roe"\}/,
    );
    expect(verdict.fix).toMatch(/datePublished "2026-03-03" \(the page shows "March 3, 2026"\)/);
    expect(verdict.fix).toMatch(/"publisher" \{"@type": "Organization", "name": "Acme News"\}/);
  });

  it("proposes a WebPage with the page's name and URL otherwise", () => {
    const verdict = judge(
      structuredData,
      `<html><head><title>Pricing</title></head><body><h1>Pricing</h1></body></html>`,
    );
    expect(verdict.fix).toMatch(/"@type": "WebPage".*"name": "Pricing", "url": "https:\/\/example\.com\/page"/);
  });
});
