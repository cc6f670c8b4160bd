import { judge } from "../fixture";
import { titleLength } from "./title-length.check";

const titled = (text: string) => `<html><head><title>${text}</title></head><body></body></html>`;

describe("title-length", () => {
  it("passes at 30 to 60 characters", () => {
    const verdict = judge(titleLength, titled("a".repeat(45)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("45 characters");
  });

  it("counts characters, not UTF-16 units", () => {
    expect(judge(titleLength, titled("😀".repeat(30))).description).toContain("30 characters");
  });

  it("warns at 10-29 and 61-70", () => {
    expect(judge(titleLength, titled("a".repeat(12))).status).toBe("warn");
    const verdict = judge(titleLength, titled("a".repeat(70)));
    expect(verdict.status).toBe("warn");
    expect(verdict.fix).toMatch(/Shorten/);
  });

  it("fails when shorter or longer", () => {
    expect(judge(titleLength, titled("Home")).status).toBe("fail");
    expect(judge(titleLength, titled("a".repeat(71))).description).toContain("71 characters");
  });

  it("skips without a title", () => {
    expect(judge(titleLength, "<html><head></head><body></body></html>").status).toBe("skip");
  });
});
