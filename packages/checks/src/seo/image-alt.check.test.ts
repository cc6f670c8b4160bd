import { judge } from "../fixture";
import { imageAlt } from "./image-alt.check";

const body = (content: string) => `<html><head></head><body>${content}</body></html>`;
const described = (n: number) =>
  Array.from({ length: n }, (_, i) => `<img src="/p${i}.png" alt="Photo ${i}">`).join("");

describe("image-alt", () => {
  it("passes when every image has alt or is decorative", () => {
    const verdict = judge(
      imageAlt,
      body(
        `${described(2)}<img src="/line.png" alt=""><img src="/x.png" role="presentation"><img src="/y.png" aria-label="Chart">`,
      ),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("All 5 images");
  });

  it("warns when up to 10 % lack alt", () => {
    const verdict = judge(imageAlt, body(`${described(9)}<img src="/missing.png">`));
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("1 of 10 images (10 %)");
    expect(verdict.description).toContain("/missing.png");
  });

  it("fails when more lack alt, and counts an alt of spaces as missing", () => {
    const verdict = judge(imageAlt, body('<img src="/a.png"><img src="/b.png" alt="  "><img src="/c.png" alt="C">'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("2 of 3 images");
  });

  it("leaves out images in noscript, hidden or aria-hidden", () => {
    const html = body(
      '<noscript><img src="/n.png"></noscript><div aria-hidden="true"><img src="/h.png"></div><img src="/s.png" hidden>',
    );
    expect(judge(imageAlt, html).status).toBe("skip");
  });

  it("skips without images", () => {
    const verdict = judge(imageAlt, body("<p>text</p>"));
    expect(verdict.status).toBe("skip");
    expect(verdict.description).toContain("no images");
  });
});
