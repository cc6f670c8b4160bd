import { judge } from "../fixture";
import { ttfb } from "./ttfb.check";

describe("ttfb", () => {
  it("passes at 600 ms or less", () => {
    const verdict = judge(ttfb, "", { ttfbMs: 600 });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("600 ms");
  });

  it("warns up to 1,800 ms", () => {
    const verdict = judge(ttfb, "", { ttfbMs: 1800 });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("1,800 ms");
  });

  it("fails when slower", () => {
    expect(judge(ttfb, "", { ttfbMs: 2400.4 }).description).toContain("2,400 ms");
    expect(judge(ttfb, "", { ttfbMs: 2400 }).status).toBe("fail");
  });

  it("skips when not measured", () => {
    expect(judge(ttfb, "", { ttfbMs: null }).status).toBe("skip");
  });
});
