import { judge } from "../fixture";
import { summaryIntro } from "./summary-intro.check";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const main = (inner: string) => `<html><body><main>${inner}</main></body></html>`;

describe("summary-intro", () => {
  it("passes with a 15-80 word first paragraph, passing over bylines and figures", () => {
    const verdict = judge(
      summaryIntro,
      main(`<p>By Ann</p><figure><p>${words(100)}</p></figure><p>${words(30)}.</p><p>${words(200)}</p>`),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("The main content opens with a 30-word paragraph.");
  });

  it("fails when the first paragraph is too long or too short", () => {
    const long = judge(summaryIntro, main(`<p>${words(120)}.</p>`));
    expect(long.status).toBe("fail");
    expect(long.description).toBe("The main content's first paragraph has 120 words; 15 to 80 reads as a summary.");
    expect(long.fix).toMatch(/shorter/);
    expect(judge(summaryIntro, main(`<p>${words(8)}</p>`)).description).toMatch(/has 8 words/);
  });

  it("fails without paragraphs", () => {
    const verdict = judge(summaryIntro, main("<div>Just a div</div>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no paragraph/);
  });
});
