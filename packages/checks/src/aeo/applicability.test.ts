import { judgeCorpusPage } from "../fixture";
import { faqSchema } from "./faq-schema.check";
import { speakable } from "./speakable.check";

/**
 * A check that does not apply to a page skips with the reason (the scorer leaves skips out of
 * both sums): faq-schema on pages without FAQs, speakable on pages that are no news article.
 * Before, both failed every page of the corpus.
 */
describe("faq-schema and speakable skip real pages they do not apply to", () => {
  it.each(["theverge", "daringfireball-1", "wikipedia"])("faq-schema skips %s, which has no FAQ", (name) => {
    const verdict = judgeCorpusPage(faqSchema, name);
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/^Not applicable: the main content holds no question-and-answer pairs/);
  });

  it("faq-schema skips google-sre-book-1: one answered question is a section, not an FAQ", () => {
    const verdict = judgeCorpusPage(faqSchema, "google-sre-book-1");
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(/answers one question \(h2 "Why Monitor\?"\)/);
  });

  it("faq-schema skips v8-blog: its one question heading, read without its permalink mark, is a section", () => {
    const verdict = judgeCorpusPage(faqSchema, "v8-blog");
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toMatch(
      /answers one question \(h2 "Do we need non-standalone Wasm\?"\), a section rather than an FAQ/,
    );
  });

  it.each(["v8-blog", "google-sre-book-1", "dropbox-blog", "wikipedia"])(
    "speakable skips %s, which is no news article",
    (name) => {
      const verdict = judgeCorpusPage(speakable, name);
      expect(verdict.status).toBe("skip");
      expect(verdict.description).toMatch(/^Not applicable: speakable is a beta for news articles/);
    },
  );

  it("speakable applies to news articles and says what makes them news", () => {
    expect(judgeCorpusPage(speakable, "bbc-1").description).toMatch(/og:type article of "BBC News"/);
    const verge = judgeCorpusPage(speakable, "theverge");
    expect(verge.status).toBe("fail");
    expect(verge.description).toMatch(/declares a NewsArticle in a block that does not parse/);
  });
});
