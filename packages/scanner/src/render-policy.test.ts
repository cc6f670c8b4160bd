import { judgeServedHtml } from "./render-policy";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const page = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>A page</title>${head}</head><body>${body}</body></html>`;
const ARTICLE = `<main><h1>Heading</h1><p>${words(120)}</p></main>`;

describe("judgeServedHtml: when a quick scan must render", () => {
  it("does not render a page without executable scripts, whatever it holds", () => {
    const verdict = judgeServedHtml(
      page('<script type="application/ld+json">{"@type":"Thing"}</script>', '<div id="root"></div>'),
    );
    expect(verdict).toMatchObject({ render: false, reason: "no executable script" });
  });

  it("does not render a server-rendered page whose scripts leave its content alone", () => {
    const verdict = judgeServedHtml(
      page('<script src="/app.js" defer></script>', `${ARTICLE}<script>track()</script>`),
    );
    expect(verdict).toMatchObject({ render: false, reason: "server-rendered content" });
  });

  it("renders when an inline script writes into the document", () => {
    const verdict = judgeServedHtml(page("<script>document.write('<p>ad</p>')</script>", ARTICLE));
    expect(verdict).toMatchObject({ render: true, reason: "an inline script calls document.write" });
    expect(judgeServedHtml(page("<script>document . writeln ('x')</script>", ARTICLE)).render).toBe(true);
  });

  it("renders an app shell: an empty mount point next to scripts", () => {
    expect(
      judgeServedHtml(page('<script src="/bundle.js"></script>', `<div id="__next"></div>${ARTICLE}`)),
    ).toMatchObject({
      render: true,
      reason: "an empty app mount point (client-rendered)",
    });
    expect(
      judgeServedHtml(page('<script type="module" src="/main.js"></script>', "<app-root></app-root>")).render,
    ).toBe(true);
    // a mount point the server already filled is content, not a shell
    expect(judgeServedHtml(page('<script src="/bundle.js"></script>', `<div id="root">${ARTICLE}</div>`)).render).toBe(
      false,
    );
  });

  it("renders when a <noscript> asks for JavaScript", () => {
    const verdict = judgeServedHtml(
      page(
        '<script src="/x.js"></script>',
        `<noscript>Please enable JavaScript to view this site.</noscript>${ARTICLE}`,
      ),
    );
    expect(verdict).toMatchObject({ render: true, reason: "a <noscript> asks for JavaScript" });
  });

  it("renders a page that serves few words next to scripts", () => {
    const verdict = judgeServedHtml(page('<script src="/x.js"></script>', `<p>${words(20)}</p>`));
    expect(verdict).toMatchObject({ render: true, reason: "only 20 served words next to scripts" });
  });

  it("ignores data blocks, templates and nomodule fallbacks when counting scripts", () => {
    const verdict = judgeServedHtml(
      page(
        '<script type="text/template"><div>document.write("x")</div></script><script nomodule src="/legacy.js"></script>',
        "<template><script>document.write('x')</script></template><p>few words</p>",
      ),
    );
    expect(verdict.render).toBe(false);
  });

  it("parses as a browser does: metadata after stray body content lands in the body", () => {
    const { html } = judgeServedHtml(
      '<html><head><title>T</title>text<meta name="description" content="d"></head></html>',
    );
    expect(html).toMatch(/<body>text<meta name="description" content="d"><\/body>/);
  });
});
