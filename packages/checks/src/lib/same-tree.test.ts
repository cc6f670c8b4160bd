import { parseDocument } from "../page";
import { sameTree } from "./same-tree";

const root = (html: string): Element => parseDocument(html).documentElement;

const PAGE = `<!doctype html><html lang="en"><head><title>Tea</title></head>
<body><main id="m"><h1 class="title">Green tea</h1><p>Steep <b>two</b> minutes.</p><!-- note --></main></body></html>`;

describe("sameTree", () => {
  it("holds the same tree for a page and its parse serialised again", () => {
    const served = parseDocument(PAGE);
    expect(sameTree(served.documentElement, root(`<!doctype html>${served.documentElement.outerHTML}`))).toBe(true);
  });

  it("tells apart any change of a tag, an attribute, its order, a text or a comment", () => {
    const changed = [
      PAGE.replace("<b>two</b>", "<i>two</i>"),
      PAGE.replace('class="title"', 'class="headline"'),
      PAGE.replace('<main id="m">', '<main id="m" hidden>'),
      PAGE.replace("two", "three"),
      PAGE.replace("<!-- note -->", "<!-- other -->"),
      PAGE.replace("</main>", "<p>Added by a script.</p></main>"),
      PAGE.replace("<main", '<div class="ad"></div><main'),
    ];
    for (const html of changed) expect(sameTree(root(PAGE), root(html))).toBe(false);
    const swapped = (first: string, second: string) => `<html><body><p ${first} ${second}>x</p></body></html>`;
    expect(sameTree(root(swapped('id="a"', 'class="b"')), root(swapped('class="b"', 'id="a"')))).toBe(false);
  });

  it("walks a tree nested deeper than a recursive walk could", () => {
    const deep = `<html><body>${"<div>".repeat(20_000)}deep${"</div>".repeat(20_000)}</body></html>`;
    expect(sameTree(root(deep), root(deep))).toBe(true);
    expect(sameTree(root(deep), root(deep.replace("deep", "deeper")))).toBe(false);
  });
});
