import { judge } from "../fixture";
import { rawHtmlContent } from "./raw-html-content.check";

const PARAGRAPH =
  "<p>Widgets turn plans into shipped work by splitting tasks into small reviewed steps every week.</p>";
const ARTICLE = `<article><h1>How widgets work</h1>${PARAGRAPH.repeat(6)}</article>`;
const page = (body: string) => `<html><head><title>t</title></head><body>${body}</body></html>`;

describe("raw-html-content", () => {
  it("passes when the served HTML holds the content", () => {
    const verdict = judge(rawHtmlContent, page(ARTICLE), { rawHtml: page(`<nav>Home</nav>${ARTICLE}`) });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/holds 100 % of the rendered main content's \d+ words/);
  });

  it("fails when the content only exists after JavaScript", () => {
    const verdict = judge(rawHtmlContent, page(ARTICLE), {
      rawHtml: page('<div id="root"></div><script src="/app.js"></script>'),
    });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/holds 0 %.*see little/);
  });

  it("warns when part of it is served, counting words with repetition", () => {
    const half = `<article><h1>How widgets work</h1>${PARAGRAPH.repeat(3)}</article>`;
    const verdict = judge(rawHtmlContent, page(ARTICLE), { rawHtml: page(half) });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/holds 5\d %.*only part/);
  });

  it("skips when the rendered page has no content", () => {
    expect(judge(rawHtmlContent, "<html><body></body></html>").status).toBe("skip");
  });
});
