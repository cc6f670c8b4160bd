import { judge } from "../fixture";
import { https } from "./https.check";

describe("https", () => {
  it("passes on https and notes an upgrade from http", () => {
    const verdict = judge(https, "", { requestedUrl: "http://example.com/page" });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("redirects to it");
  });

  it("fails on http", () => {
    const verdict = judge(https, "", { requestedUrl: "http://example.com/", finalUrl: "http://example.com/" });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("plain HTTP");
  });
});
