import { judge } from "../fixture";
import { openGraph } from "./open-graph.check";

const head = (content: string) => `<html><head>${content}</head><body></body></html>`;
const og = (key: string) => `<meta property="og:${key}" content="${key} value">`;

describe("open-graph", () => {
  it("passes with title, description and image", () => {
    const verdict = judge(openGraph, head(og("title") + og("description") + og("image")));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("og:image");
  });

  it("accepts name= as well as property=", () => {
    const html = head(`<meta name="og:title" content="T">${og("description")}${og("image")}`);
    expect(judge(openGraph, html).status).toBe("pass");
  });

  it("warns when some are missing or blank", () => {
    const verdict = judge(openGraph, head(`${og("title")}<meta property="og:image" content=" ">`));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("lacks og:description and og:image");
  });

  it("fails with none", () => {
    expect(judge(openGraph, head("<title>t</title>")).status).toBe("fail");
  });

  it("proposes the page's own title, opening and image, and asks the owner for what the page lacks", () => {
    const opening =
      "The moon pulls the sea toward it, and the sea rises twice a day on the side of the earth that faces it.";
    const verdict = judge(
      openGraph,
      `<html><head><title>Tides explained</title></head><body><article><h1>Tides explained</h1><p>${opening}</p><img src="/img/app-promo.jpg" alt=""><img src="/img/tide.jpg" alt="High tide"><p>${opening}</p><p>${opening}</p></article></body></html>`,
    );
    expect(verdict.fix).toBe(
      `Add <meta property="og:title" content="Tides explained"> (the page's <title>), <meta property="og:description" content="${opening}"> (the content's opening), <meta property="og:image" content="https://example.com/img/tide.jpg"> (the content's first image) in the <head>.`,
    );
    const bare = judge(openGraph, head("<title>t</title>"));
    expect(bare.fix).toContain("the page has no paragraph to sum it up, so its owner must supply one");
    expect(bare.fix).toContain("the content shows no image, so its owner must supply one");
    expect(bare.fix).not.toContain('content="..."');
  });
});
