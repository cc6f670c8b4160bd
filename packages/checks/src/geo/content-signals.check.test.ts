import { judge } from "../fixture";
import { citationsOutbound, quotations, statistics } from "./content-signals.check";

const article = (inner: string) =>
  `<html><head><title>t</title></head><body><article><h1>Report</h1>${inner}</article></body></html>`;

describe("statistics", () => {
  it("passes with three or more quantitative facts", () => {
    const verdict = judge(
      statistics,
      article("<p>Sales rose 42% to $3.5 million in 2025, across 12 km of shelf space.</p>"),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/"42%"/);
  });

  it("warns with one or two", () => {
    expect(
      judge(statistics, article("<p>Sales rose 42% last spring, which pleased everyone involved.</p>")).status,
    ).toBe("warn");
  });

  it("fails without numbers", () => {
    const verdict = judge(statistics, article("<p>Sales rose a lot, which pleased everyone involved in the work.</p>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no numbers/);
  });
});

describe("citations-outbound", () => {
  it("passes when the content links two other sites", () => {
    const verdict = judge(
      citationsOutbound,
      article(
        '<p>See <a href="https://who.int/report">WHO</a> and <a href="https://www.nature.com/x">Nature</a>, and <a href="/about">us</a>.</p>',
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2 other sites \(who\.int, nature\.com\)/);
  });

  it("warns with one, not counting the site's own subdomains", () => {
    const verdict = judge(
      citationsOutbound,
      article(
        '<p><a href="https://who.int/r">WHO</a> <a href="https://blog.example.com/x">blog</a> <a href="https://www.example.com/y">home</a></p>',
      ),
    );
    expect(verdict.status).toBe("warn");
  });

  it("fails with none", () => {
    expect(judge(citationsOutbound, article('<p>Only <a href="/pricing">our pricing</a>.</p>')).status).toBe("fail");
  });
});

describe("quotations", () => {
  it("passes with a blockquote", () => {
    expect(judge(quotations, article("<blockquote><p>Ship small, ship often.</p></blockquote>")).status).toBe("pass");
  });

  it("passes with an attributed quote in the text", () => {
    const verdict = judge(
      quotations,
      article('<p>"We doubled our release rate within a quarter," said Jane Doe, the CTO.</p>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/by name/);
  });

  it("fails without any", () => {
    expect(judge(quotations, article("<p>Nothing quoted here at all, just plain prose.</p>")).status).toBe("fail");
  });
});
