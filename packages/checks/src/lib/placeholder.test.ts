import { contentDepth } from "../aeo/content-depth.check";
import { qaContent } from "../aeo/qa-content.check";
import { subheadings } from "../aeo/subheadings.check";
import { judge } from "../fixture";
import { quotations } from "../geo/quotations.check";
import { statistics } from "../geo/statistics.check";
import { allChecks } from "../registry";

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.";
const page = (body: string) =>
  `<html lang="en"><head><title>Our services</title></head><body><main><h1>Our services</h1>${body}</main></body></html>`;

const findings = (html: string) =>
  allChecks
    .map((check) => ({ id: check.id, verdict: judge(check, html) }))
    .filter(({ verdict }) => verdict.status === "warn" || verdict.status === "fail");

describe("placeholder pages", () => {
  it("a lorem-ipsum page gets one content finding, and the content checks skip pointing to it", () => {
    const html = page(`<p>${LOREM}</p><p>${LOREM}</p><p>${LOREM}</p>`);
    const depth = judge(contentDepth, html);
    expect(depth.status).toBe("fail");
    expect(depth.description).toMatch(
      /^The main content under "Our services" is a placeholder, lorem ipsum, not the page's content: "Lorem ipsum dolor sit amet/,
    );
    expect(depth.fix).toMatch(
      /^Replace the \d+ words of placeholder text \("Lorem ipsum dolor sit amet.*"\) under "Our services" with the page's real content/,
    );
    for (const check of [subheadings, qaContent, quotations, statistics]) {
      const verdict = judge(check, html);
      expect(verdict.status).toBe("skip");
      expect(verdict.description).toBe(
        "Not judged: the main content is a placeholder (lorem ipsum); content-depth reports it once.",
      );
    }
    const contentFindings = findings(html).filter(({ verdict }) => /placeholder/.test(verdict.description));
    expect(contentFindings.map(({ id }) => id)).toEqual(["content-depth"]);
  });

  it.each([
    ["a coming-soon notice", "<p>Coming soon! Our new site is launching in spring.</p>", /a "coming soon" notice/],
    [
      "a CMS's sample post",
      "<p>Welcome to WordPress. This is your first post. Edit or delete it.</p>",
      /template text/,
    ],
  ])("%s is a placeholder", (_name, body, kind) => {
    expect(judge(contentDepth, page(body)).description).toMatch(kind);
    expect(judge(quotations, page(body)).status).toBe("skip");
  });

  it("a real page that quotes lorem ipsum, or mentions what is coming soon at length, is judged as usual", () => {
    const prose =
      "<p>Typesetters have filled mock-ups with the same scrambled Latin since the 1500s, and designers still do when the copy is late, because it looks like text without inviting anyone to read it.</p>".repeat(
        4,
      );
    const html = page(
      `${prose}<p>It starts "${LOREM.slice(0, 60)}" and goes on.</p><p>More tools are coming soon.</p>`,
    );
    expect(judge(contentDepth, html).description).not.toMatch(/placeholder/);
    expect(judge(quotations, html).status).not.toBe("skip");
  });
});
