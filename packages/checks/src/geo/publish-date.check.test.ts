import { judge } from "../fixture";
import { freshness, publishDate } from "./publish-date.check";

// FIXED_SCAN_TIME is 2026-06-01
const withMeta = (meta: string, body = "") => `<html><head>${meta}</head><body>${body}</body></html>`;
const jsonLd = (data: object) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe("publish-date", () => {
  it("passes with a JSON-LD datePublished", () => {
    const verdict = judge(
      publishDate,
      withMeta(jsonLd({ "@context": "https://schema.org", "@type": "Article", datePublished: "2026-03-01" })),
    );
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2026-03-01 \(JSON-LD datePublished\)/);
  });

  it("passes with article:published_time or <time datetime>", () => {
    expect(
      judge(publishDate, withMeta('<meta property="article:published_time" content="2025-01-02T10:00:00Z">')).status,
    ).toBe("pass");
    expect(judge(publishDate, withMeta("", '<time datetime="2024-05-06">May 6</time>')).status).toBe("pass");
  });

  it("fails with only a human-readable date", () => {
    expect(judge(publishDate, withMeta("", "<p>Published May 6, 2024</p><time>May 6</time>")).status).toBe("fail");
  });
});

describe("freshness", () => {
  it("passes within 12 months of the scan", () => {
    expect(judge(freshness, withMeta('<meta property="article:modified_time" content="2026-01-15">')).status).toBe(
      "pass",
    );
  });

  it("warns at 12 to 24 months, judging the newest date", () => {
    const verdict = judge(
      freshness,
      withMeta("", '<time datetime="2023-01-01"></time><time datetime="2025-01-10"></time>'),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/2025-01-10/);
  });

  it("fails when older", () => {
    expect(judge(freshness, withMeta("", '<time datetime="2020-01-01"></time>')).status).toBe("fail");
  });

  it("ignores future dates and skips without a date", () => {
    expect(judge(freshness, withMeta("", '<time datetime="2030-01-01"></time>')).status).toBe("skip");
    expect(judge(freshness, withMeta("")).status).toBe("skip");
  });
});
