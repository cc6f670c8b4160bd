import { judge } from "../fixture";
import { h1 } from "./h1.check";

const body = (content: string) => `<html><head><title>t</title></head><body>${content}</body></html>`;

describe("h1", () => {
  it("passes with one h1", () => {
    const verdict = judge(h1, body("<h1>Pricing plans</h1><h2>Team</h2>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("Pricing plans");
  });

  it("counts an h1 that holds only a logo with alt text", () => {
    const verdict = judge(h1, body('<h1><img src="logo.png" alt="Acme"></h1><h1>  </h1>'));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("1 more h1 is empty");
  });

  it("warns with several h1", () => {
    const verdict = judge(h1, body("<h1>One</h1><h1>Two</h1>"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("2 <h1> headings");
  });

  it("fails without h1", () => {
    const verdict = judge(h1, body("<h2>Sub</h2>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no <h1>/);
  });

  it("fails when every h1 is empty", () => {
    expect(judge(h1, body("<h1></h1>")).description).toMatch(/all empty/);
  });
});
