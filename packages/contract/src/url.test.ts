import { normaliseScanUrl } from "./url";

describe("normaliseScanUrl", () => {
  it.each([
    ["https://Example.COM/a?b=1#frag", "A", "https://example.com/a?b=1"],
    ["http://example.com:80/", "A", "http://example.com/"],
    ["https://example.com:8443/x", "A", "https://example.com:8443/x"],
    ["  https://example.com  ", "A", "https://example.com/"],
    ["https://bücher.de/", "A", "https://xn--bcher-kva.de/"],
    ["example.com", "B", "https://example.com/"],
    ["example.com/path?q=1", "B", "https://example.com/path?q=1"],
    ["example.com:8080/x", "B", "https://example.com:8080/x"],
    ["//example.com/x", "B", "https://example.com/x"],
    ["http://example.com", "B", "http://example.com/"],
  ] as const)("%s in Form %s is %s", (input, form, expected) => {
    expect(normaliseScanUrl(input, form)).toEqual({ ok: true, url: expected });
  });

  it.each([
    ["example.com", "A", /absolute/],
    ["example.com:8080/x", "A", /absolute/],
    ["", "A", /empty/],
    ["ftp://example.com/", "A", /scheme ftp/],
    ["javascript:alert(1)", "B", /scheme javascript/],
    ["https://user:pw@example.com/", "A", /credentials/],
    ["https://exa mple.com/", "A", /whitespace/],
    [`https://example.com/${"a".repeat(2100)}`, "A", /longer than/],
    ["https://", "B", /not a valid URL/],
  ] as const)("refuses %s in Form %s", (input, form, reason) => {
    const result = normaliseScanUrl(input, form);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
