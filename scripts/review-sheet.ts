/**
 * The review sheet of the second real-page corpus: every check's verdict, description and fix on
 * the chosen pages of ../shared/corpus-parser, browser-free (the saved HTML is the served and the
 * rendered page, the page judged as scripts/verdict-changes/extract.ts judges it), so that a hand review of them
 * can be repeated at any commit.
 *
 *   pnpm exec tsx scripts/review-sheet.ts                      the review's pages, as text
 *   pnpm exec tsx scripts/review-sheet.ts --json sheet.json    the same as JSON (page → check → verdict)
 *   pnpm exec tsx scripts/review-sheet.ts --pages a.com,b.org  other pages
 *
 * It judges the pages with extract.ts, which imports only what every version of the checks package
 * offers (`allChecks`, `preparePage`), so the two can be copied into an older tree and run there.
 *
 * The review's pages are chosen by a rule, not by their verdicts: every fifth page of the corpus
 * by name (the 1st, 6th, 11th, … of the sorted folder names), then, for each language of the
 * corpus those miss, the first page by name whose <html lang> states it (German, French) or, for
 * Chinese, the one page written in it (www.qdaily.com, which states no lang).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pageVerdicts, type Verdicts } from "./verdict-changes/extract";

const CORPUS = resolve(__dirname, "../../shared/corpus-parser/pages");

/** the first page by name whose <html lang> starts with `language` */
const firstStating = (names: string[], language: string): string | undefined =>
  names.find((name) => {
    const html = readFileSync(join(CORPUS, name, "index.html"), "utf8");
    const lang = /<html\b[^>]*\blang="([^"]*)"/i.exec(html)?.[1]?.toLowerCase() ?? "";
    return lang === language || lang.startsWith(`${language}-`);
  });

export const reviewPages = (): string[] => {
  const names = readdirSync(CORPUS).sort();
  const chosen = names.filter((_, index) => index % 5 === 0);
  for (const language of ["de", "fr"]) {
    const page = firstStating(names, language);
    if (page && !chosen.includes(page)) chosen.push(page);
  }
  if (names.includes("www.qdaily.com") && !chosen.includes("www.qdaily.com")) chosen.push("www.qdaily.com");
  return chosen;
};

const { values } = parseArgs({ options: { pages: { type: "string" }, json: { type: "string" } } });
const pages = values.pages ? values.pages.split(",").filter(Boolean) : reviewPages();
const known = new Set(readdirSync(CORPUS));
const sheet: Verdicts = {};
for (const name of pages) {
  if (!known.has(name)) {
    console.error(`no page ${name} under ${CORPUS}`);
    process.exit(2);
  }
  sheet[name] = pageVerdicts(CORPUS, name);
}

if (values.json) {
  writeFileSync(values.json, `${JSON.stringify(sheet, null, 1)}\n`);
  console.log(`wrote ${values.json} (${pages.length} pages)`);
} else {
  for (const [page, checks] of Object.entries(sheet)) {
    console.log(`\n## ${page}`);
    for (const [id, verdict] of Object.entries(checks)) {
      console.log(`\n${id}: ${verdict.status}\n  description: ${verdict.description}`);
      if (verdict.fix) console.log(`  fix: ${verdict.fix}`);
      if (verdict.evidence?.length) console.log(`  evidence: ${verdict.evidence.join(" | ")}`);
    }
  }
}
