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
});
