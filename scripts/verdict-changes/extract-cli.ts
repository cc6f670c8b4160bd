import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { extractVerdicts } from "./extract";

/**
 * `tsx scripts/verdict-changes/extract-cli.ts <pages dir> <out.json> [same|reserialized]`: this
 * tree's verdicts on the corpus, as JSON (extract.ts says what the rendered HTML is).
 */
const [pages, out, rendered = "same"] = process.argv.slice(2);
if (!pages || !out || (rendered !== "same" && rendered !== "reserialized")) {
  console.error("usage: tsx scripts/verdict-changes/extract-cli.ts <pages dir> <out.json> [same|reserialized]");
  process.exit(2);
}
writeFileSync(out, `${JSON.stringify(extractVerdicts(resolve(pages), rendered), null, 1)}\n`);
