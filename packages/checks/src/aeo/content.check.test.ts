import { judge } from "../fixture";
import { contentDepth, listsAndTables, semanticLandmarks, subheadings, summaryIntro } from "./content.check";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const article = (inner: string) => `<html><body><main><article>${inner}</article></main></body></html>`;

describe("summary-intro", () => {
  it("passes with a 15-80 word first paragraph", () => {
    expect(judge(summaryIntro, article(`<p>${words(30)}.</p><p>${words(200)}</p>`)).description).toMatch(/30-word/);
  });

  it("fails when the first paragraph is too long", () => {
    const verdict = judge(summaryIntro, article(`<p>${words(120)}.</p>`));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/120 words/);
  });
});

describe("lists-and-tables", () => {
  it("passes with a list of three", () => {
    expect(judge(listsAndTables, article(`<p>${words(40)}</p><ul><li>a</li><li>b</li><li>c</li></ul>`)).status).toBe(
      "pass",
    );
  });

  it("passes with a table with headers", () => {
    expect(
      judge(listsAndTables, article(`<p>${words(40)}</p><table><tr><th>k</th></tr><tr><td>v</td></tr></table>`)).status,
    ).toBe("pass");
  });

  it("fails with a two-item list and a header-less table", () => {
    expect(
      judge(
        listsAndTables,
        article(`<p>${words(40)}</p><ul><li>a</li><li>b</li></ul><table><tr><td>v</td></tr></table>`),
      ).status,
    ).toBe("fail");
  });
});

describe("content-depth", () => {
  it("passes at 300 words, warns at 100-299, fails below", () => {
    expect(judge(contentDepth, article(`<p>${words(320)}</p>`)).status).toBe("pass");
    expect(judge(contentDepth, article(`<p>${words(150)}</p>`)).description).toMatch(/150 words/);
    expect(judge(contentDepth, article(`<p>${words(150)}</p>`)).status).toBe("warn");
    expect(judge(contentDepth, article(`<p>${words(20)}</p>`)).status).toBe("fail");
  });
});

describe("subheadings", () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `<h2>Part ${i}</h2><p>${words(60)}</p>`).join("");
  it("passes with three, warns with one, fails with none", () => {
    expect(judge(subheadings, article(body(3))).status).toBe("pass");
    expect(judge(subheadings, article(body(1))).status).toBe("warn");
    expect(judge(subheadings, article(`<p>${words(100)}</p>`)).status).toBe("fail");
  });
});

describe("semantic-landmarks", () => {
  it("passes with main and a sectioning element", () => {
    expect(judge(semanticLandmarks, "<html><body><header>h</header><main>m</main></body></html>").status).toBe("pass");
  });

  it("warns with only one of the two, counting ARIA roles", () => {
    expect(judge(semanticLandmarks, '<html><body><div role="main">m</div></body></html>').description).toMatch(
      /has <main> but no/,
    );
    expect(judge(semanticLandmarks, "<html><body><nav>n</nav><div>m</div></body></html>").status).toBe("warn");
  });

  it("fails with only divs", () => {
    expect(judge(semanticLandmarks, "<html><body><div>m</div></body></html>").status).toBe("fail");
  });
});
