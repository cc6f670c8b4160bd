import { judge } from "../fixture";
import { rawHtmlContent } from "./raw-html-content.check";

const ARTICLE = `<article><h1>How widgets work</h1>${"<p>Widgets turn plans into shipped work by splitting tasks into small reviewed steps every week.</p>".repeat(6)}</article>`;
const page = (body: string) => `<html><head><title>t</title></head><body>${body}</body></html>`;

describe("raw-html-content", () => {
  it("passes when the served HTML holds the content", () => {
    const verdict = judge(rawHtmlContent, page(ARTICLE));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/100 %/);
  });

  it("fails when the content only exists after JavaScript", () => {
    const verdict = judge(rawHtmlContent, page(ARTICLE), {
      rawHtml: page('<div id="root"></div><script src="/app.js"></script>'),
    });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/see little/);
  });

  it("warns when part of it is served", () => {
    const half = `<article><h1>How widgets work</h1><p>Widgets turn plans into shipped work by splitting tasks.</p></article>`;
    const rendered = `<article><h1>How widgets work</h1><p>Widgets turn plans into shipped work by splitting tasks.</p><p>Reviews happen weekly with everyone present, notes get published afterwards.</p></article>`;
    expect(judge(rawHtmlContent, page(rendered), { rawHtml: page(half) }).status).toBe("warn");
  });

  it("skips when the rendered page has no content", () => {
    expect(judge(rawHtmlContent, "<html><body></body></html>").status).toBe("skip");
  });
});
