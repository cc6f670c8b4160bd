import { judge } from "../fixture";
import { anchorIds, answerFirst, qaContent } from "./questions.check";

const ANSWER =
  "Shipping takes three to five working days inside the country, and up to ten days abroad, depending on the carrier and the customs office involved.";
const page = (body: string, lang = "en") => `<html lang="${lang}"><body>${body}</body></html>`;

describe("qa-content", () => {
  it("passes with two question headings", () => {
    const verdict = judge(
      qaContent,
      page("<h2>How long does shipping take?</h2><h3>Can I return an item</h3><h2>Prices</h2>"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2 h2\/h3 headings are questions/);
  });

  it("warns with one, fails with none", () => {
    expect(judge(qaContent, page("<h2>Why choose us?</h2><h2>Prices</h2>")).status).toBe("warn");
    expect(judge(qaContent, page("<h2>Prices</h2><h2>Team</h2>")).status).toBe("fail");
  });

  it("knows the interrogatives of the page's language", () => {
    expect(judge(qaContent, page("<h2>Wie funktioniert das</h2><h2>Warum wir</h2>", "de")).status).toBe("pass");
    expect(judge(qaContent, page("<h2>Wie funktioniert das</h2><h2>Warum wir</h2>", "en")).status).toBe("fail");
  });
});

describe("answer-first", () => {
  it("passes when questions are answered at once", () => {
    const verdict = judge(answerFirst, page(`<h2>How long does shipping take?</h2><p>${ANSWER}</p>`));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/1 of 1/);
  });

  it("warns when some are, fails when none are", () => {
    const two = `<h2>How long does shipping take?</h2><p>${ANSWER}</p><h2>What does it cost?</h2><p>It depends.</p><h2>Who ships it?</h2><p>Us.</p>`;
    expect(judge(answerFirst, page(two)).status).toBe("warn");
    expect(judge(answerFirst, page("<h2>What does it cost?</h2><p>It depends.</p>")).status).toBe("fail");
  });

  it("skips without question headings", () => {
    expect(judge(answerFirst, page("<h2>Prices</h2><p>x</p>")).status).toBe("skip");
  });
});

describe("anchor-ids", () => {
  it("passes when most headings have ids, counting an id on the section they open", () => {
    expect(judge(anchorIds, page('<h2 id="a">A</h2><section id="b"><h2>B</h2></section><h2>C</h2>')).status).toBe(
      "pass",
    );
  });

  it("warns when some do, fails when none do, skips without headings", () => {
    expect(judge(anchorIds, page('<h2 id="a">A</h2><h2>B</h2><h3>C</h3>')).description).toMatch(/1 of 3/);
    expect(judge(anchorIds, page("<h2>A</h2><h2>B</h2>")).status).toBe("fail");
    expect(judge(anchorIds, page("<p>x</p>")).status).toBe("skip");
  });
});
