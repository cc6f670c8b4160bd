import { judge, judgeCorpusPage } from "../fixture";
import { breadcrumbSchema } from "./breadcrumb-schema.check";

const page = (json: string) =>
  `<html><head><script type="application/ld+json">${json}</script></head><body></body></html>`;
const TRAIL =
  '{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home","item":"https://example.com/"},{"@type":"ListItem","position":2,"name":"Page"}]}';

describe("breadcrumb-schema", () => {
  it("passes with a BreadcrumbList", () => {
    const verdict = judge(breadcrumbSchema, page(TRAIL));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("BreadcrumbList markup with 2 items.");
  });

  it("fails without one, or with an empty one", () => {
    const none = judge(breadcrumbSchema, page('{"@context":"https://schema.org","@type":"WebPage"}'));
    expect(none.status).toBe("fail");
    expect(none.description).toBe("No BreadcrumbList markup for /page.");
    const empty = judge(
      breadcrumbSchema,
      page('{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[]}'),
    );
    expect(empty.description).toMatch(/no items/);
  });

  it("skips the home page without breadcrumbs", () => {
    const home = { requestedUrl: "https://example.com/", finalUrl: "https://example.com/" };
    const verdict = judge(breadcrumbSchema, "<html><body></body></html>", home);
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/home page/);
  });

  it("reads a BreadcrumbList in microdata and RDFa too", () => {
    const rdfa = `<html><body><ol vocab="https://schema.org/" typeof="BreadcrumbList"><li property="itemListElement" typeof="ListItem"><a property="item" href="/">Home</a></li><li property="itemListElement" typeof="ListItem"><span property="name">Page</span></li></ol></body></html>`;
    expect(judge(breadcrumbSchema, rdfa).description).toBe("BreadcrumbList markup (RDFa) with 2 items.");
    expect(judgeCorpusPage(breadcrumbSchema, "wordpress").description).toBe(
      "BreadcrumbList markup (microdata) with 3 items.",
    );
  });

  it("warns on an item whose URL its template left unfilled, naming it", () => {
    const broken = TRAIL.replace('"item":"https://example.com/"', '"item":"https://example.com/category/undefined"');
    const verdict = judge(breadcrumbSchema, page(broken));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain(
      'item 1 of 2 ("Home") links to "https://example.com/category/undefined", a value its template left unfilled',
    );
    expect(verdict.fix).toContain('Give the BreadcrumbList\'s item 1 of 2 ("Home") the URL');
    const object = TRAIL.replace('"item":"https://example.com/"', '"item":{"@id":"[object Object]","name":"Home"}');
    expect(judge(breadcrumbSchema, page(object)).status).toBe("warn");
    // a real path that merely contains the letters passes
    const fine = TRAIL.replace('"item":"https://example.com/"', '"item":"https://example.com/undefined-behaviour/"');
    expect(judge(breadcrumbSchema, page(fine)).status).toBe("pass");
  });
});

describe("breadcrumb-schema: the trail from the page itself", () => {
  it("lists the home page under the site's name, the visible breadcrumb's levels and the page under its headline", () => {
    const html = `<html><head><title>Blue widget | Acme</title></head><body><div class="breadcrumbs"><a href="/">Home</a> › <a href="/widgets/">Widgets</a></div><main><h1>Blue widget</h1><p>Text.</p></main></body></html>`;
    const verdict = judge(breadcrumbSchema, html, { finalUrl: "https://example.com/widgets/blue" });
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(
      /1 "Acme" https:\/\/example\.com\/ › 2 "Widgets" https:\/\/example\.com\/widgets\/ › 3 "Blue widget" https:\/\/example\.com\/widgets\/blue/,
    );
  });

  it("names the folders of the path and asks the owner for their names without a visible trail", () => {
    const html = `<html><head><title>Blue widget</title></head><body><main><h1>Blue widget</h1><p>Text.</p></main></body></html>`;
    const verdict = judge(breadcrumbSchema, html, { finalUrl: "https://example.com/widgets/blue" });
    expect(verdict.fix).toMatch(/"\(the site's name: the page names none, so its owner must supply it\)"/);
    expect(verdict.fix).toMatch(/\(the name of https:\/\/example\.com\/widgets\/, which its owner must supply\)/);
  });
});
