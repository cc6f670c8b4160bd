import { FIXED_SCAN_TIME, judge, snapshotOf } from "../fixture";
import { preparePage } from "../page";
import { isQuestion } from "./headings";
import { qaContent } from "./qa-content.check";

const page = (body: string, lang?: string) => `<html${lang ? ` lang="${lang}"` : ""}><body>${body}</body></html>`;
const question = (text: string, lang?: string) =>
  isQuestion(preparePage(snapshotOf(page("", lang)), FIXED_SCAN_TIME), text);

describe("qa-content", () => {
  it("passes with two question headings", () => {
    const verdict = judge(
      qaContent,
      page("<h2>How long does shipping take?</h2><h3>Can I return an item</h3><h2>Prices</h2>", "en"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      '2 h2/h3 headings are questions: "How long does shipping take?", "Can I return an item".',
    );
  });

  it("warns with one", () => {
    const verdict = judge(qaContent, page("<h2>Why choose us?</h2><h2>Prices</h2>", "en"));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain('"Why choose us?"');
  });

  it("fails with none, and ignores headings in noscript", () => {
    const verdict = judge(
      qaContent,
      page("<h2>Prices</h2><h3>Team</h3><noscript><h2>Why?</h2><h2>How?</h2></noscript>", "en"),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe("None of the page's 2 h2/h3 headings is phrased as a question.");
  });

  it("says so when the only heading is no question", () => {
    expect(judge(qaContent, page("<h2>Prices</h2>", "en")).description).toBe(
      "The page's only h2/h3 heading is not phrased as a question.",
    );
  });

  it("knows the interrogatives of the page's language, and all of them without a lang", () => {
    expect(judge(qaContent, page("<h2>Wie funktioniert das</h2><h2>Warum wir</h2>", "de")).status).toBe("pass");
    expect(judge(qaContent, page("<h2>Wie funktioniert das</h2><h2>Warum wir</h2>", "en")).status).toBe("fail");
    expect(judge(qaContent, page("<h2>Comment ça marche</h2><h2>Hoe werkt het</h2>")).status).toBe("pass");
  });

  it("takes an auxiliary for a question only when a subject follows", () => {
    expect(question("Can I pay by card", "en")).toBe(true);
    expect(question("Is it safe for children", "en")).toBe(true);
    expect(question("Do more with less", "en")).toBe(false);
    expect(question("May 2026 product update", "en")).toBe(false);
    expect(question("Gibt es Rabatte", "de")).toBe(true);
    expect(question("¿Cuánto cuesta", "es")).toBe(true);
    expect(question("Cómo funciona", "es")).toBe(true);
    expect(question("Howard's story", "en")).toBe(false);
  });
});
