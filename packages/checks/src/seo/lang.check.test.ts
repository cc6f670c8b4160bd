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

  const page = (head: string, body: string, attr = "") =>
    `<html ${attr}><head><title>t</title>${head}</head><body>${body}</body></html>`;

  it("proposes the language the page's text is written in, not English", () => {
    const chinese = judge(lang, page("", `<p>${"今天的天气很好，我们去公园散步吧。".repeat(5)}</p>`));
    expect(chinese.fix).toContain('<html lang="zh"> (its text is written in Chinese characters)');
    const japanese = judge(lang, page("", `<p>${"今日はとても良い天気ですね。公園に行きましょう。".repeat(4)}</p>`));
    expect(japanese.fix).toContain('<html lang="ja">');
    const german = judge(
      lang,
      page(
        "",
        `<p>${"Die Stadt ist nicht mit der Bahn zu erreichen, und das ist ein Problem für die Bewohner. ".repeat(3)}</p>`,
      ),
    );
    expect(german.fix).toContain('<html lang="de"> (its text reads as German)');
  });

  it("takes a language the page states elsewhere before guessing", () => {
    const stated = judge(lang, page('<meta property="og:locale" content="pt_BR">', "<p>Hello there</p>"));
    expect(stated.fix).toContain('<html lang="pt-BR"> (its og:locale is pt_BR)');
    const inJsonLd = judge(
      lang,
      page('<script type="application/ld+json">{"@type":"Article","inLanguage":"fr-CA"}</script>', ""),
    );
    expect(inJsonLd.fix).toContain('<html lang="fr-CA">');
  });

  it("mends a tag that is wrong only in form, and asks the owner when nothing tells", () => {
    expect(judge(lang, doc('lang="en_US"')).fix).toContain('with lang="en-US" (the same tag with a hyphen)');
    const unknown = judge(lang, doc('lang="english"'));
    expect(unknown.fix).toContain("its owner must say");
    expect(unknown.fix).not.toContain('lang="en"');
    expect(judge(lang, doc("")).fix).toContain("its owner must say");
  });
});
