import { judge } from "../fixture";
import { metaDescription } from "./meta-description.check";

const page = (head: string) => `<html><head>${head}</head><body></body></html>`;

describe("meta-description", () => {
  it("passes with a non-empty description", () => {
    const verdict = judge(metaDescription, page('<meta name="Description" content="Plans and prices for teams.">'));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("Plans and prices for teams.");
  });

  it("fails without a description", () => {
    const verdict = judge(metaDescription, page("<title>x</title>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no meta description/);
  });

  it("ignores a meta description the parser put in the body", () => {
    const html = '<html><head><title>t</title></head><body><meta name="description" content="Late"></body></html>';
    expect(judge(metaDescription, html).status).toBe("fail");
  });

  it("fails when the first description is blank, as Lighthouse reads only the first", () => {
    const verdict = judge(
      metaDescription,
      page('<meta name="description" content="  "><meta name="description" content="Later one">'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/blank/);
  });
});
