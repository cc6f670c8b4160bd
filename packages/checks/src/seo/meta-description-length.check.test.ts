import { judge } from "../fixture";
import { metaDescriptionLength } from "./meta-description-length.check";

const described = (length: number) =>
  `<html><head><meta name="description" content="${"a".repeat(length)}"></head><body></body></html>`;

describe("meta-description-length", () => {
  it("passes at 70 to 160 characters", () => {
    const verdict = judge(metaDescriptionLength, described(120));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("120 characters");
  });

  it("warns at 50-69 and 161-200", () => {
    expect(judge(metaDescriptionLength, described(50)).status).toBe("warn");
    expect(judge(metaDescriptionLength, described(200)).status).toBe("warn");
  });

  it("fails when shorter or longer", () => {
    const verdict = judge(metaDescriptionLength, described(20));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/Expand/);
    expect(judge(metaDescriptionLength, described(201)).status).toBe("fail");
  });

  it("skips without a description", () => {
    expect(judge(metaDescriptionLength, "<html><head></head><body></body></html>").status).toBe("skip");
  });
});
