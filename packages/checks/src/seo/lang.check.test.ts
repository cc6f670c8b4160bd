import { judge } from "../fixture";
import { lang } from "./lang.check";

const doc = (attr: string) => `<html ${attr}><head><title>t</title></head><body></body></html>`;

describe("lang", () => {
  it.each(["en", "en-GB", "pt-BR", "zh-Hant-TW", "iw"])("passes with %s", (tag) => {
    const verdict = judge(lang, doc(`lang="${tag}"`));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain(tag);
  });

  it("fails without lang", () => {
    const verdict = judge(lang, doc(""));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no lang attribute/);
  });

  it("fails with an empty lang", () => {
    expect(judge(lang, doc('lang=""')).description).toMatch(/empty/);
  });

  it.each(["en_US", "english", "xx", "en-UK"])("fails with invalid %s", (tag) => {
    const verdict = judge(lang, doc(`lang="${tag}"`));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("not a valid BCP 47");
  });
});
