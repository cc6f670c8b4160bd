import { judge } from "../fixture";
import { title } from "./title.check";

describe("title", () => {
  it("passes with a non-empty title", () => {
    const verdict = judge(title, "<html><head><title>Pricing plans for teams</title></head><body></body></html>");
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("Pricing plans for teams");
  });

  it("fails without a title", () => {
    expect(judge(title, "<html><head></head><body><h1>Hi</h1></body></html>").status).toBe("fail");
  });

  it("fails with a blank title", () => {
    const verdict = judge(title, "<html><head><title>  \n </title></head><body></body></html>");
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/blank/);
  });

  it("ignores <title> inside inline SVG", () => {
    const html = "<html><head></head><body><svg><title>icon-heart</title></svg></body></html>";
    const verdict = judge(title, html);
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("no <title>");
  });
});
