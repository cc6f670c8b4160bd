import { z } from "zod";
import { basicPassword, bearerToken, tokenMatches } from "./access-token";
import { OpsConfig, parseConfig } from "./config";

describe("operator tokens", () => {
  it("matches only the exact token", () => {
    const token = "0123456789abcdef0123";
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches(token.slice(0, -1), token)).toBe(false);
    expect(tokenMatches(undefined, token)).toBe(false);
    expect(tokenMatches("", token)).toBe(false);
  });

  it("reads Bearer and Basic credentials", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("bearer   abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
    const basic = `Basic ${Buffer.from("admin:s3cret:with-colon").toString("base64")}`;
    expect(basicPassword(basic)).toBe("s3cret:with-colon");
    expect(basicPassword(`Basic ${Buffer.from("no-colon").toString("base64")}`)).toBeUndefined();
    expect(basicPassword("Bearer abc")).toBeUndefined();
  });
});

describe("OpsConfig", () => {
  const Ops = z.object(OpsConfig);
  it("treats an empty secret as unset and refuses a short one", () => {
    expect(parseConfig(Ops, { METRICS_TOKEN: "", WEBHOOK_SECRET: "", SMTP_URL: "" }, "test")).toEqual({
      METRICS_TOKEN: undefined,
      WEBHOOK_SECRET: undefined,
      READY_TIMEOUT_MS: 1000,
      ALERT_FROM: "SEO scanner alerts <alerts@localhost>",
      DASHBOARD_URL: "http://localhost:3000/app",
    });
    expect(() => parseConfig(Ops, { WEBHOOK_SECRET: "short" }, "test")).toThrow(/WEBHOOK_SECRET: must be at least 16/);
  });
});
