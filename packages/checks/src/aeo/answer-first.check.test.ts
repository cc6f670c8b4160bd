import { judge } from "../fixture";
import { answerFirst } from "./answer-first.check";

const ANSWER =
  "Shipping takes three to five working days inside the country, and up to ten days abroad, depending on the carrier and the customs office involved.";
const page = (body: string) =>
  `<html lang="en"><head><title>Shipping guide</title></head><body><h1>Shipping guide</h1>${body}</body></html>`;

describe("answer-first", () => {
  it("passes when questions are answered at once, also when the heading sits in its own wrapper", () => {
    const verdict = judge(
      answerFirst,
      page(
        `<article><div class="title"><h2>How long does shipping take?</h2></div><div><p> </p><p>${ANSWER}</p></div><p>${ANSWER}</p></article>`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe(
      '1 of 1 question heading of the main content is followed by a 20 to 80 word answer: h2 "How long does shipping take?" (25 words).',
    );
  });

  it("finds answers set as text between <br>s or straight in a <div>", () => {
    const verdict = judge(
      answerFirst,
      page(
        `<h2>What is it?</h2><br> ${ANSWER} <a href="/x">More</a>.<br><br>Next line. <h2>Why?</h2><div><span>${ANSWER}</span></div><p>Later.</p>`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/^2 of 2 question headings/);
  });

  it("warns when only some are answered", () => {
    const html = `<h2>How long does shipping take?</h2><p>${ANSWER}</p><h2>What does it cost?</h2><p>It depends.</p><h2>Who ships it?</h2><h3>Carriers</h3><p>${ANSWER}</p>`;
    const verdict = judge(answerFirst, page(html));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/^1 of 3 question headings/);
  });

  it("fails when none is, and names the question and the length of what follows it", () => {
    const verdict = judge(answerFirst, page(`<h2>What does it cost?</h2><p>${ANSWER.repeat(4)}</p>`));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/h2 "What does it cost\?" \(97 words\)/);
    expect(verdict.fix).toMatch(
      /^The first block under h2 "What does it cost\?", “Shipping takes.*”, runs 97 words: open the section with a direct answer/,
    );
  });

  it("skips without question headings, naming the headings it read", () => {
    const verdict = judge(answerFirst, page("<h2>Prices</h2><p>x</p>"));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toBe(
      'No heading of the main content is a question (h1 "Shipping guide", h2 "Prices"), so there is no answer to judge.',
    );
  });

  it("judges the page's h1 when it is a question: the content's opening paragraph answers it", () => {
    const body = `<header><h1>How long does shipping take?</h1></header><main><p>${ANSWER}</p><p>${ANSWER} ${ANSWER}</p></main>`;
    const html = `<html lang="en"><head><title>How long does shipping take? | Shop</title></head><body>${body}</body></html>`;
    const verdict = judge(answerFirst, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/h1 "How long does shipping take\?" \(25 words\)/);
  });

  it("counts the words of an answer in Japanese or Chinese, written without spaces, by a word breaker", () => {
    const answer =
      "配送には国内で三日から五日かかります。海外への配送は、運送会社と税関の手続きによって、最大で十日ほどかかることがあります。";
    const verdict = judge(
      answerFirst,
      `<html lang="ja"><head><title>配送について</title></head><body><h1>配送について</h1><h2>配送にはどのくらいかかりますか？</h2><p>${answer}</p></body></html>`,
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/h2 "配送にはどのくらいかかりますか？" \((\d+) words\)/);
  });
});

describe("answer-first: what stands between a question and its answer", () => {
  const LEAD =
    "Winning the presidency did not change the candidate, and it is increasingly clear that being president will not change him either, as his first weeks show.";

  it("passes over a video player's overlay line and a wire dateline's source before the lead", () => {
    const html = `<html lang="en"><head><title>Why won't he change?</title></head><body><article><h1>Why won't he change?</h1><div class="video-resource" data-video-id="v1" data-duration="03:08" data-source="CNN"><div class="video-resource__credit"><span>03:08</span><span> - Source: <a href="https://www.cnn.com">CNN</a></span></div></div><div class="source"><cite><span>CNN</span> &#xA0;&#x2014;&#xA0;</cite></div><p>${LEAD}</p><p>${LEAD}</p></article></body></html>`;
    const verdict = judge(answerFirst, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/\(26 words\)/);
  });

  it("names a short answer the page has and asks to complete it, not to write one", () => {
    const verdict = judge(answerFirst, page(`<h2>What does it cost?</h2><p>It depends on the size of the order.</p>`));
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(
      /^The answer under h2 "What does it cost\?", “It depends on the size of the order\.”, has 8 words: complete it/,
    );
  });
});
