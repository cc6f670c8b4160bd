import { judge } from "../fixture";
import { semanticLandmarks } from "./semantic-landmarks.check";

const page = (body: string) => `<html><body>${body}</body></html>`;

describe("semantic-landmarks", () => {
  it("passes with <main> and sectioning elements, ARIA roles included", () => {
    const verdict = judge(
      semanticLandmarks,
      page('<div role="banner">Logo</div><main><article>x</article></main><footer>f</footer>'),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toBe("The page has <main> and <article>, <header>, <footer>.");
  });

  it("warns with main alone, or sectioning without main", () => {
    const alone = judge(semanticLandmarks, page("<main><p>x</p></main>"));
    expect(alone.status).toBe("warn");
    expect(alone.description).toMatch(/<main> but no article/);
    const noMain = judge(semanticLandmarks, page("<nav>n</nav><div>content</div>"));
    expect(noMain.status).toBe("warn");
    expect(noMain.description).toBe("The page has <nav> but no <main>.");
  });

  it("fails with generic elements only, ignoring noscript", () => {
    const verdict = judge(semanticLandmarks, page("<div>x</div><noscript><main>y</main></noscript>"));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/no <main>/);
  });
});
