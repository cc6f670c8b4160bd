import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIGURATION_PAGE, renderConfigurationPage } from "./docs/configuration";

const { page, problems } = renderConfigurationPage();
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
writeFileSync(join(__dirname, "..", CONFIGURATION_PAGE), page);
console.log(`wrote ${CONFIGURATION_PAGE}`);
