import { judge } from "../fixture";
import { contentDepth } from "./content-depth.check";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const main = (inner: string, lang = "en") => `<html lang="${lang}"><body><main><p>${inner}</p></main></body></html>`;

describe("content-depth", () => {
  it("passes with 300 words or more", () => {
    const verdict = judge(contentDepth, main(words(320)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/has 320 words\.$/);
  });

  it("warns from 100 to 299 words", () => {
    const verdict = judge(contentDepth, main(words(150)));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/has 150 words; 300 or more/);
  });

  it("fails below 100 words", () => {
    const verdict = judge(contentDepth, main(words(40)));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/has 40 words/);
  });

  it("counts words of Japanese text, which has no spaces", () => {
    const verdict = judge(contentDepth, main("今日は良い天気です。私は公園に行きました。".repeat(20), "ja"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/has 2\d\d words/);
  });
});
