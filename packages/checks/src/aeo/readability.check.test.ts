import { judge } from "../fixture";
import { readability } from "./readability.check";

const EASY = "The cat sat on the mat. It was a good day. We had tea and cake. The sun was out and the sky was blue. ";
const MEDIUM =
  "Our support team answers most questions within one working day, and urgent issues reach an engineer at once. Customers on the business plan also get a named account manager who reviews their setup every quarter. " +
  "The new policy changes how employees submit travel expenses, and managers must approve each request within five business days. ".repeat(
    2,
  );
const HARD =
  "Notwithstanding considerable methodological heterogeneity, contemporary epidemiological investigations consistently demonstrate statistically significant associations between socioeconomic deprivation and cardiovascular morbidity, necessitating comprehensive multidisciplinary interventions. ";
const page = (text: string, lang: string | null = "en") =>
  `<html${lang === null ? "" : ` lang="${lang}"`}><body><article><p>${text}</p></article></body></html>`;

describe("readability", () => {
  it("passes easy English", () => {
    const verdict = judge(readability, page(EASY.repeat(8)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/^Flesch reading ease (?:[5-9]\d|1\d\d) \(6 words per sentence/);
    expect(verdict.fix).toBeUndefined();
  });

  it("warns on fairly hard English", () => {
    const verdict = judge(readability, page(MEDIUM.repeat(4), "en-GB"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/^Flesch reading ease [34]\d .*fairly hard to read/);
  });

  it("fails very hard English", () => {
    const verdict = judge(readability, page(HARD.repeat(6)));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/^Flesch reading ease -?\d+ \(22 words per sentence/);
    expect(verdict.fix).toMatch(/shorten sentences from 22 words on average to under 20/);
  });

  it("ends a sentence at a heading or list item without a full stop", () => {
    const items = Array.from({ length: 40 }, (_, index) => `<li>Step ${index} is easy to do</li>`).join("");
    const verdict = judge(
      readability,
      `<html lang="en"><body><article><h2>Steps</h2><ul>${items}</ul></article></body></html>`,
    );
    expect(verdict.description).toContain("5 words per sentence");
  });

  it("skips pages in other languages", () => {
    const verdict = judge(readability, page(EASY.repeat(8), "de"));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toContain('in "de"');
  });

  it("decides by the text when there is no lang attribute", () => {
    expect(judge(readability, page(EASY.repeat(8), null)).status).toBe("pass");
    const german = "Der Hund lief schnell über die Wiese und sprang dann in den kleinen Bach hinein. ".repeat(10);
    const verdict = judge(readability, page(german, null));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toContain("not in English, by its text");
  });

  it("skips too little text", () => {
    const verdict = judge(readability, page("Short text here."));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/too little text \(3 words\)/);
  });
});
