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
    expect(verdict.description).toMatch(/^FAQPage markup with 1 answered question\./);
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

  it("fails without FAQPage markup, even with a lone Question", () => {
    const verdict = judge(faqSchema, page(`{"@context":"https://schema.org",${QUESTION.slice(1)}`));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toBe("No FAQPage markup on the page.");
  });
});
