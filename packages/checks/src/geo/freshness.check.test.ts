import { judge } from "../fixture";
import { freshness } from "./freshness.check";

// FIXED_SCAN_TIME is 2026-06-01T12:00Z
const withHead = (head: string, body = "") => `<html><head>${head}</head><body>${body}</body></html>`;

describe("freshness", () => {
  it("passes within 12 months of the scan", () => {
    const verdict = judge(freshness, withHead('<meta property="article:modified_time" content="2026-05-15">'));
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toMatch(/2026-05-15 \(<meta article:modified_time>\), 17 days before the scan/);
  });

  it("warns at 12 to 24 months, judging the newest date", () => {
    const verdict = judge(
      freshness,
      withHead("", '<time datetime="2023-01-01"></time><time datetime="2025-01-10"></time>'),
    );
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toMatch(/2025-01-10 .* 16 months before/);
  });

  it("fails when older than 24 months", () => {
    const verdict = judge(freshness, withHead("", '<time datetime="2020-01-01"></time>'));
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/2020-01-01 \(<time datetime>\), 6 years before the scan/);
    expect(verdict.fix).toMatch(/dateModified/);
  });

  it("ignores future dates, saying so, and skips without a date", () => {
    const future = judge(freshness, withHead("", '<time datetime="2030-01-01"></time>'));
    expect(future.status).toBe("skip");
    expect(future.description).toMatch(/ignored \(2030-01-01 in <time datetime>\)/);
    const older = judge(
      freshness,
      withHead("", '<time datetime="2030-01-01"></time><time datetime="2020-01-01"></time>'),
    );
    expect(older.status).toBe("fail");
    expect(judge(freshness, withHead("")).status).toBe("skip");
  });
});
