import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_TYPES_FILE, renderClientTypes } from "@scan/client/generate";
import { describeApi } from "@scan/gateway";

/**
 * `pnpm client:generate`: the typed client's types from the gateway's OpenAPI document, built
 * in this process from the same module that serves /openapi.json. scripts/client-types.test.ts
 * fails when the committed file differs.
 */
const main = async () => {
  writeFileSync(join(__dirname, "..", CLIENT_TYPES_FILE), await renderClientTypes(describeApi()));
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
