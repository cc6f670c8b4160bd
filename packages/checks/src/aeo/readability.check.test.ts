import { judge } from "../fixture";
import { readability, syllables } from "./readability.check";

const EASY = "The cat sat on the mat. It was a good day. We had tea and cake. The sun was out and the sky was blue. ";
const HARD =
  "Notwithstanding considerable methodological heterogeneity, contemporary epidemiological investigations consistently demonstrate statistically significant associations between socioeconomic deprivation and cardiovascular morbidity, necessitating comprehensive multidisciplinary interventions. ";
const page = (text: string, lang = "en") =>
  `<html lang="${lang}"><body><article><p>${text}</p></article></body></html>`;

describe("readability", () => {
  it("counts syllables close to a dictionary", () => {
    expect([syllables("cat"), syllables("table"), syllables("reading"), syllables("beautiful")]).toEqual([1, 2, 2, 3]);
  });

  it("passes easy English", () => {
    const verdict = judge(readability, page(EASY.repeat(8)));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/Flesch reading ease \d+/);
  });

  it("fails very hard English", () => {
    expect(judge(readability, page(HARD.repeat(6))).status).toBe("fail");
  });

  it("skips other languages, and decides by the text when there is no lang", () => {
    expect(judge(readability, page(EASY.repeat(8), "de")).status).toBe("skip");
    expect(judge(readability, `<html><body><article><p>${EASY.repeat(8)}</p></article></body></html>`).status).toBe(
      "pass",
    );
    const german = "Der Hund lief schnell über die Wiese und sprang dann in den kleinen Bach hinein. ".repeat(10);
    expect(judge(readability, `<html><body><article><p>${german}</p></article></body></html>`).status).toBe("skip");
  });

  it("skips too little text", () => {
    expect(judge(readability, page("Short text here.")).description).toMatch(/too little text/);
  });
});
