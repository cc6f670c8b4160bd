import { judge } from "../fixture";
import { faqSchema } from "./faq-schema.check";

const page = (json: string) =>
  `<html><head><script type="application/ld+json">${json}</script></head><body></body></html>`;
const QUESTION =
  '{"@type":"Question","name":"Do you ship abroad?","acceptedAnswer":{"@type":"Answer","text":"Yes, to 30 countries."}}';

describe("faq-schema", () => {
  it("passes with a FAQPage of answered questions", () => {
    const verdict = judge(
      faqSchema,
      page(`{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[${QUESTION}]}`),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/^FAQPage markup with 1 answered question: "Do you ship abroad\?"\./);
  });

  it("follows @id references within a @graph", () => {
    const graph = `{"@context":"https://schema.org","@graph":[{"@type":"FAQPage","mainEntity":[{"@id":"#q1"}]},${QUESTION.replace("{", '{"@id":"#q1",')}]}`;
    expect(judge(faqSchema, page(graph)).status).toBe("pass");
  });

  it("fails when the questions have no answer text", () => {
    const verdict = judge(
      faqSchema,
      page('{"@context":"https://schema.org","@type":"FAQPage","mainEntity":{"@type":"Question","name":"Why?"}}'),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/1 question, none with/);
  });

  it("skips a page with no FAQ: no FAQPage markup (a lone Question is none) and no questions answered in its content", () => {
    const verdict = judge(faqSchema, page(`{"@context":"https://schema.org",${QUESTION.slice(1)}`));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toBe(
      "Not applicable: the main content holds no question-and-answer pairs (question headings or <details> with answers) and the page has no FAQPage markup.",
    );
  });

  const ANSWER =
    "<p>We ship to thirty countries, with tracking, in three to ten working days from the day you order.</p>";
  const visible = (body: string) =>
    `<html lang="en"><head><title>Shipping questions</title></head><body><main><h1>Shipping questions</h1>${body}</main></body></html>`;

  it("skips one answered question: a section of an article, not an FAQ", () => {
    const verdict = judge(faqSchema, visible(`<h2>Do you ship abroad?</h2>${ANSWER}<h2>Our carriers</h2>${ANSWER}`));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(
      /answers one question \(h2 "Do you ship abroad\?"\), a section rather than an FAQ/,
    );
  });

  it("fails when the main content answers two or more questions without markup, and names them", () => {
    const verdict = judge(
      faqSchema,
      visible(
        `<h2>Do you ship abroad?</h2>${ANSWER}<details><summary>Can I return an item?</summary><p>Yes, within thirty days of delivery, for a full refund of the price.</p></details>`,
      ),
    );
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe(
      'The main content answers 2 questions (h2 "Do you ship abroad?", <summary> "Can I return an item?") but has no FAQPage markup.',
    );
    expect(verdict.fix).toMatch(
      /^Mark up the visible questions \(h2 "Do you ship abroad\?", <summary> "Can I return an item\?"\) as FAQPage/,
    );
  });

  it("says FAQPage markup is present but unreadable when a CDATA wrapper breaks its block, and to remove the wrapper", () => {
    const json = `<![CDATA[{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[${QUESTION}]}]]>`;
    const verdict = judge(faqSchema, page(json));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(
      /^FAQPage markup is present but unreadable: JSON-LD block 1 declares FAQPage, Question, Answer but does not parse: it is wrapped in <!\[CDATA\[/,
    );
    expect(verdict.fix).toMatch(
      /^Remove the <!\[CDATA\[ \.\.\. \]\]> \(or <!-- \.\.\. -->\) wrapper around JSON-LD block 1/,
    );
  });
});
