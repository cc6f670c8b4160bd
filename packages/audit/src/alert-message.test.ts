import type { RegressionAlert } from "@scan/contract";
import { alertMessage, auditLink } from "./alert-message";

const alert = (change: Partial<RegressionAlert> = {}): RegressionAlert => ({
  event: "site.regressed",
  alert_id: "7b0a6c54-3e1f-4b8e-9a51-0c3b6f0f3a11",
  site_id: "0f6f1f0e-8f55-4a5e-a2a2-4c1d1b7b9c01",
  site_url: "https://shop.example:8443",
  audit_id: "4c9d5d2e-1a7b-4f0e-9a3e-2b8c6d4e5f60",
  previous_audit_id: "1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  mode: "full",
  scores: {
    before: { seo: 90, aeo: 80, geo: 70, overall: 82, total: 82 },
    after: { seo: 71, aeo: 80, geo: 66, overall: 73, total: 73 },
  },
  grade: { before: "B+", after: "C" },
  reasons: [
    { kind: "score_drop", points: 9, before: 82, after: 73 },
    { kind: "grade_lower", before: "B+", after: "C" },
    {
      kind: "check_failing",
      scope: "page",
      check: "meta-description",
      title: "Page has a meta description",
      pages: Array.from({ length: 7 }, (_, i) => `https://shop.example:8443/p/${i}`),
    },
    {
      kind: "check_failing",
      scope: "site",
      check: "broken-internal-links",
      title: "Internal links lead to pages that answer",
      pages: ["https://shop.example:8443/<gone>"],
    },
  ],
  detected_at: "2026-11-27T10:00:00.000Z",
  ...change,
});

describe("alertMessage", () => {
  const message = alertMessage(alert(), "https://scan.example/app/");

  it("names the site, with its port, in the subject", () => {
    expect(message.subject).toBe("shop.example:8443 got worse: 4 things since the last full audit");
  });

  it("says what got worse, from what to what, on how many pages, with the pages", () => {
    expect(message.text).toContain("Scores: Overall 82 → 73 · SEO 90 → 71 · AEO 80 · GEO 70 → 66");
    expect(message.text).toContain("Grade: B+ → C");
    expect(message.text).toContain("  - Overall score fell 9 points: 82 → 73");
    expect(message.text).toContain("  - Grade fell: B+ → C");
    expect(message.text).toContain(
      "  - Page has a meta description (page check meta-description): passed on every page before, fails now on 7 pages",
    );
    expect(message.text).toContain("    https://shop.example:8443/p/4\n    and 2 more pages");
    expect(message.text).not.toContain("/p/5");
    expect(message.text).toContain(
      "  - Internal links lead to pages that answer (site check broken-internal-links): passed before, fails now on 1 page",
    );
  });

  it("links to the audit in the dashboard", () => {
    const link =
      "https://scan.example/app/sites/0f6f1f0e-8f55-4a5e-a2a2-4c1d1b7b9c01?audit=4c9d5d2e-1a7b-4f0e-9a3e-2b8c6d4e5f60";
    expect(auditLink("https://scan.example/app/", alert())).toBe(link);
    expect(message.text).toContain(`Open the audit: ${link}`);
    expect(message.slack.text).toContain(link);
    expect(JSON.stringify(message.slack.blocks)).toContain(`<${link}|Open the audit in the dashboard>`);
  });

  it("gives Slack a header, the scores and one section per reason, with its markup escaped", () => {
    const [header, scores, ...rest] = message.slack.blocks;
    expect(header).toEqual({ type: "header", text: { type: "plain_text", text: message.subject } });
    expect(scores).toMatchObject({
      type: "section",
      text: { text: "Scores: Overall 82 → 73 · SEO 90 → 71 · AEO 80 · GEO 70 → 66" },
    });
    const sections = rest
      .filter((block) => block.type === "section")
      .map((block) => ("text" in block ? block.text.text : ""));
    expect(sections[0]).toBe("*Overall score fell 9 points: 82 → 73*");
    expect(sections[2]).toContain("_and 2 more pages_");
    expect(sections[3]).toContain("• https://shop.example:8443/&lt;gone&gt;");
  });

  it("says one thing in the singular, and counts a capped page list as 50 or more", () => {
    const capped = alertMessage(
      alert({
        mode: "quick",
        reasons: [
          {
            kind: "check_failing",
            scope: "page",
            check: "title",
            title: "Page has a title",
            pages: Array.from({ length: 50 }, (_, i) => `https://shop.example:8443/${i}`),
          },
        ],
      }),
      "https://scan.example/app",
    );
    expect(capped.subject).toBe("shop.example:8443 got worse: 1 thing since the last quick audit");
    expect(capped.text).toContain("fails now on 50 or more pages");
    expect(capped.text).toContain("and 45 more pages");
  });
});
