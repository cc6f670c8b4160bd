import { judge } from "../fixture";
import { crawlableAnchors } from "./crawlable-anchors.check";

const body = (content: string) => `<html><head></head><body>${content}</body></html>`;

describe("crawlable-anchors", () => {
  it("passes with real hrefs, fragment targets, mailto and role=button anchors", () => {
    const verdict = judge(
      crawlableAnchors,
      body(
        '<a href="/pricing">Pricing</a><a id="top"></a><a name="section"></a><a href="mailto:x@y.z">Mail</a><a role="button" href="javascript:void(0)">Menu</a><a>placeholder</a>',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("None of the page's 6 <a> elements");
  });

  it("fails on javascript:void(0)", () => {
    const verdict = judge(crawlableAnchors, body('<a href="javascript:void(0)">Open</a><a href="/ok">OK</a>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain('1 of 2 links cannot be crawled, e.g. "Open" (href="javascript:void(0)")');
    // the fix names the page's own link and no made-up URL
    expect(verdict.fix).toBe(
      'Give each of the 1 links the URL of the page it opens in href ("Open" (href="javascript:void(0)"): a javascript:void(0) href); where one only runs a script (a menu, a tab, a player), make it a <button>.',
    );
  });

  it("fails on an anchor without href that a click handler drives", () => {
    const verdict = judge(crawlableAnchors, body('<div onclick="go()"><a class="x">Products</a></div>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("click handler");
  });

  it("counts element handlers on <body>, not the ones the window receives", () => {
    const page = (attributes: string) => `<html><head></head><body ${attributes}><a>Menu</a></body></html>`;
    expect(judge(crawlableAnchors, page('oncontextmenu="return false"')).status).toBe("fail");
    expect(judge(crawlableAnchors, page('onload="init()"')).status).toBe("pass");
  });

  it("fails on link attributes without href and on file: URLs", () => {
    expect(judge(crawlableAnchors, body('<a target="_blank">Docs</a>')).description).toContain("no href");
    expect(judge(crawlableAnchors, body('<a href="file:///C:/doc.pdf">Doc</a>')).status).toBe("fail");
  });

  it("fails on an href that is not a URL", () => {
    expect(judge(crawlableAnchors, body('<a href="http://[bad">Bad</a>')).description).toContain("not a valid URL");
  });

  it("passes other javascript: hrefs as Lighthouse does, but never calls them followable", () => {
    const verdict = judge(crawlableAnchors, body('<a href="javascript:openMenu()">Menu</a><a href="/ok">OK</a>'));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain('1 runs a script instead of linking ("Menu" (href="javascript:openMenu()"))');
    expect(verdict.description).toContain("crawlers do not follow");
    expect(judge(crawlableAnchors, body('<a href="/ok">OK</a>')).description).toBe(
      "None of the page's 1 <a> elements is a link crawlers cannot follow.",
    );
  });
});
