import { judge } from "../fixture";
import { viewport } from "./viewport.check";

const head = (content: string) => `<html><head>${content}</head><body></body></html>`;
const meta = (content: string) => head(`<meta name="viewport" content="${content}">`);

describe("viewport", () => {
  it("passes with width=device-width", () => {
    const verdict = judge(viewport, meta("width=device-width, initial-scale=1"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("width=device-width");
  });

  it("passes with initial-scale=1 alone, as Lighthouse does", () => {
    expect(judge(viewport, meta("initial-scale=1.0")).status).toBe("pass");
  });

  it("fails without a viewport tag", () => {
    const verdict = judge(viewport, head("<title>t</title>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no viewport/);
  });

  it("fails when initial-scale is below 1", () => {
    expect(judge(viewport, meta("width=device-width, initial-scale=0.5")).description).toMatch(/below 1/);
  });

  it("fails with a fixed layout width", () => {
    const verdict = judge(viewport, meta("width=1024"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("1024");
  });

  it("fails when neither width nor initial-scale is set", () => {
    expect(judge(viewport, meta("user-scalable=no")).status).toBe("fail");
  });
});
