import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIGURATION_PAGE, renderConfigurationPage } from "../scripts/docs/configuration";

describe("docs/configuration.md", () => {
  const { page, problems } = renderConfigurationPage();

  it("describes every variable of every program", () => {
    expect(problems).toEqual([]);
    for (const variable of ["DATABASE_URL", "SCAN_WAIT_MS", "WORKER_CONCURRENCY", "SCAN_API_URL", "JWT_PRIVATE_KEY"]) {
      expect(page).toContain(`| \`${variable}\` |`);
    }
  });

  it("is what the config schemas render now (run `pnpm docs:config` after changing one)", () => {
    expect(readFileSync(join(__dirname, "..", CONFIGURATION_PAGE), "utf8")).toBe(page);
  });
});
