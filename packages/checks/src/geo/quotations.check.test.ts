import { judge } from "../fixture";
import { quotations } from "./quotations.check";

const article = (inner: string) =>
  `<html><head><title>t</title></head><body><article><h1>Report</h1>${inner}</article></body></html>`;

describe("quotations", () => {
  it("passes with a blockquote, quoting its start", () => {
    const verdict = judge(quotations, article("<p>Intro.</p><blockquote><p>Ship small, ship often.</p></blockquote>"));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/1 quotation in <blockquote> or <q>, the first: "Ship small, ship often\."/);
  });

  it("passes with an attributed quote in the text", () => {
    const verdict = judge(
      quotations,
      article('<p>"We doubled our release rate within a quarter," said Jane Doe, the CTO.</p>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/quotes a named source: "We doubled.*said Jane Doe/);
    expect(
      judge(quotations, article("<p>“Release early and often, then listen,” Linus Torvalds wrote once.</p>")).status,
    ).toBe("pass");
  });

  it("fails without any, and quoted words without a speaker are no quotation", () => {
    const verdict = judge(quotations, article('<p>Some call it "the best widget of the year" without saying who.</p>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/quotes no one/);
  });
});
