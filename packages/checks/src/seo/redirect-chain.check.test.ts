import { judge } from "../fixture";
import { redirectChain } from "./redirect-chain.check";

const hop = (n: number) => ({ url: `https://example.com/${n}`, status: 301, location: `https://example.com/${n + 1}` });
const hops = (n: number) => Array.from({ length: n }, (_, i) => hop(i));

describe("redirect-chain", () => {
  it("passes without redirects and with one", () => {
    expect(judge(redirectChain, "").status).toBe("pass");
    const verdict = judge(redirectChain, "", { redirects: hops(1) });
    expect(verdict.status).toBe("pass");
    expect(verdict.description).toContain("https://example.com/0 (301) → https://example.com/page");
  });

  it("warns with two hops", () => {
    const verdict = judge(redirectChain, "", { redirects: hops(2) });
    expect(verdict.status).toBe("warn");
    expect(verdict.description).toContain("2 redirects");
  });

  it("fails with three hops or a loop", () => {
    expect(judge(redirectChain, "", { redirects: hops(3) }).status).toBe("fail");
    expect(judge(redirectChain, "", { redirects: hops(2), redirectLoop: true }).description).toMatch(/loop/);
  });
});
