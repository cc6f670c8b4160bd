import { judge } from "../fixture";
import { httpStatus } from "./http-status.check";

const html = "<html><head><title>Page</title></head><body></body></html>";

describe("http-status", () => {
  it("passes on 200", () => {
    const verdict = judge(httpStatus, html);
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("200");
  });

  it("fails on 404", () => {
    const verdict = judge(httpStatus, html, { status: 404 });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toContain("404");
  });

  it("fails on 503 with a server-error fix", () => {
    const verdict = judge(httpStatus, html, { status: 503 });
    expect(verdict.status).toBe("fail");
    expect(verdict.fix).toMatch(/server error/);
  });

  it("fails on a redirect loop", () => {
    const hop = { url: "https://example.com/a", status: 301, location: "https://example.com/b" };
    const verdict = judge(httpStatus, html, { redirectLoop: true, redirects: [hop, hop], status: 301 });
    expect(verdict.status).toBe("fail");
    expect(verdict.description).toMatch(/loop/);
  });

  it("fails when nothing answered", () => {
    expect(judge(httpStatus, "", { status: 0 }).description).toMatch(/no response/);
  });
});
