import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { extractVerdicts } from "./extract";

/** `tsx scripts/verdict-changes/extract-cli.ts <pages dir> <out.json>`: this tree's verdicts on the corpus, as JSON. */
const [pages, out] = process.argv.slice(2);
if (!pages || !out) {
  console.error("usage: tsx scripts/verdict-changes/extract-cli.ts <pages dir> <out.json>");
  process.exit(2);
}
writeFileSync(out, `${JSON.stringify(extractVerdicts(resolve(pages)), null, 1)}\n`);
