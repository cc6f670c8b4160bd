import { judge } from "../fixture";
import { linkText } from "./link-text.check";

const page = (content: string, lang = "en") => `<html lang="${lang}"><head></head><body>${content}</body></html>`;

describe("link-text", () => {
  it("passes with descriptive links", () => {
    const verdict = judge(
      linkText,
      page('<a href="/pricing">Pricing for teams</a><a href="/docs">API documentation</a>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("2 links");
  });

  it("warns on generic English text", () => {
    const verdict = judge(
      linkText,
      page('<a href="/a">Click here</a><a href="/b">Read more</a><a href="/c">Pricing</a>'),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain('2 of 3 links have generic text: "Click here", "Read more"');
    // the fix names each link's own target, not a made-up example
    expect(verdict.fix).toBe(
      'Make each link\'s text say what the page it leads to holds, in the words of that page\'s title, starting with "Click here" (to /a) and "Read more" (to /b).',
    );
  });

  it.each([
    ["fr", "En savoir plus"],
    ["de", "Mehr erfahren"],
    ["es", "Leer más"],
    ["it", "Leggi di più"],
    ["nl", "Lees meer"],
    ["pt", "Saiba mais"],
  ])("uses the page language's list (%s)", (lang, text) => {
    expect(judge(linkText, page(`<a href="/x">${text}</a>`, lang)).status).toBe("warn");
  });

  it("does not flag another language's word", () => {
    expect(judge(linkText, page('<a href="/x">Mehr</a>', "en")).status).toBe("pass");
  });

  it("leaves out nofollow, javascript:, mailto: and same-page links", () => {
    const links =
      '<a href="/x" rel="nofollow">here</a><a href="javascript:go()">here</a><a href="mailto:a@b.c">here</a><a href="#top">more</a>';
    expect(judge(linkText, page(links)).status).toBe("pass");
  });

  it("reads a closed <details>'s content as Chrome's innerText does: empty, so not generic", () => {
    const closed =
      '<details><summary>Clone</summary><p>Work fast with our CLI. <a href="/cli">Learn more</a></p></details>';
    expect(judge(linkText, page(closed)).status).toBe("pass");
    // its summary is shown, and an open one shows everything
    const summary = '<details><summary><a href="/a">Read more</a></summary><p>x</p></details>';
    expect(judge(linkText, page(summary)).status).toBe("warn");
    expect(judge(linkText, page(closed.replace("<details>", "<details open>"))).status).toBe("warn");
  });

  it("judges a link under `hidden`: Chrome's innerText of an element not laid out is its whole text", () => {
    expect(judge(linkText, page('<div hidden><a href="/cli">Learn more</a></div>')).status).toBe("warn");
  });
});
