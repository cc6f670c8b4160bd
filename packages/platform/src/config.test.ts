import { z } from "zod";
import { CommonConfig, intFrom, parseConfig } from "./config";

const Config = z.object({ ...CommonConfig, PORT: intFrom(3000, 0, 65535) });

describe("parseConfig", () => {
  it("applies defaults and coerces numbers", () => {
    const config = parseConfig(Config, { DATABASE_URL: "postgresql://localhost/db", PORT: "8080" }, "test");
    expect(config).toMatchObject({
      PORT: 8080,
      REDIS_URL: "redis://127.0.0.1:6379",
      QUEUE_PREFIX: "bull",
      LOG_LEVEL: "info",
    });
  });

  it("refuses a bad environment, naming every bad variable", () => {
    const bad = () => parseConfig(Config, { DATABASE_URL: "mysql://x", PORT: "99999", LOG_LEVEL: "loud" }, "gateway");
    expect(bad).toThrow(/^invalid gateway configuration:/);
    for (const name of ["DATABASE_URL", "PORT", "LOG_LEVEL"])
      expect(bad).toThrow(`
  ${name}: `);
  });
});
